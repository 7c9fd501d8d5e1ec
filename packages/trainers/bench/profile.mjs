#!/usr/bin/env node
// Where an SFT step's time goes, by kernel (imports the built dists). Shares, not absolute
// times, are what to read on a shared machine. Usage: node bench/profile.mjs [--preset small]
// [--top 16] (shapes listed) [--repeats 1] (median per kernel over that many profiled steps)
// [--config '{"imageSize":128}'] (ModelConfig overrides, as bench.mjs takes them).
// By phase of real SFT and GRPO steps (forward, backward, exchange, generation, env…):
// `node bench/bench.mjs --profile` (step-profile.mjs).
import { initTensor } from '@saccade/tensor';
import * as tf from '@tensorflow/tfjs-core';
import { applyChatTemplate, createAdamOptimizer, imageTokenCount, VisionLanguageModel } from '@saccade/models';
import { sftStep } from '@saccade/trainers';

const option = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : fallback;
};
const preset = option('preset', 'small');
const topShapes = Number(option('top', '16'));
await initTensor();
const model = VisionLanguageModel.create({ preset, config: JSON.parse(option('config', '{}')) });
const size = model.config.imageSize;
const image = { width: size, height: size, data: new Uint8Array(size * size * 3).fill(100) };
const placeholder = { data: new Uint8Array(), mediaType: 'image/png' };
const sequence = applyChatTemplate(
  model.tokenizer,
  [
    { role: 'user', content: [{ type: 'image', image: placeholder }, { type: 'text', text: 'FrozenLake. Reach the goal, avoid holes. Actions?' }] },
    { role: 'assistant', content: '<think>go to goal</think><answer>Left,Right,Down</answer>' },
  ],
  { imageTokens: imageTokenCount(model.config), addGenerationPrompt: false },
);
const batch = Array.from({ length: 32 }, () => ({ tokens: sequence.tokens, images: [image], lossMask: sequence.assistantMask }));
const optimizer = createAdamOptimizer({ learningRate: 1e-3 });
sftStep(model, optimizer, batch);

const repeats = Number(option('repeats', '1'));

/** Per-kernel-name and per-shape milliseconds of one profiled run. */
const tally = (info) => {
  // customGrad scopes ('unnamed scope') contain other kernels: leave them out of the total.
  const kernels = info.kernels.filter((kernel) => kernel.name !== 'unnamed scope');
  const byName = {};
  const byShape = {};
  for (const kernel of kernels) {
    byName[kernel.name] = (byName[kernel.name] ?? 0) + kernel.kernelTimeMs;
    const key = `${kernel.name} ${JSON.stringify(kernel.inputShapes)}`;
    byShape[key] = (byShape[key] ?? 0) + kernel.kernelTimeMs;
  }
  return { kernels: kernels.length, byName, byShape };
};

/**
 * With --repeats N, each kernel's time is its median over N profiled runs: on a shared machine a
 * single run's shares jump by several points when a kernel is preempted.
 */
const summarise = (runs) => {
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  const merge = (maps) => {
    const keys = new Set(maps.flatMap((map) => Object.keys(map)));
    return Object.fromEntries([...keys].map((key) => [key, median(maps.map((map) => map[key] ?? 0))]));
  };
  const byName = merge(runs.map((run) => run.byName));
  const byShape = merge(runs.map((run) => run.byShape));
  const total = Object.values(byName).reduce((sum, ms) => sum + ms, 0);
  const top = (map, count) =>
    Object.entries(map)
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, ms]) => `${((100 * ms) / total).toFixed(1)}% ${name}`);
  return { kernels: runs[0]?.kernels, repeats: runs.length, totalMs: Math.round(total), byName: top(byName, 12), byShape: top(byShape, topShapes) };
};

const trainRuns = [];
for (let repeat = 0; repeat < repeats; repeat++) trainRuns.push(tally(await tf.profile(() => void sftStep(model, optimizer, batch))));
const train = summarise(trainRuns);
const prompts = batch.slice(0, 8).map((item) => ({ tokens: item.tokens.slice(0, item.tokens.indexOf(model.tokenizer.assistantId) + 1), images: item.images }));
const generation = summarise([tally(await tf.profile(async () => void (await model.generate({ prompts, n: 8, maxTokens: 16, seed: 0 }))))]);
console.log(JSON.stringify({ preset, train, generation }, null, 2));
