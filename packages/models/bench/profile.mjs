#!/usr/bin/env node
// Where a training step's time goes, by kernel (imports the built dist). Shares, not absolute
// times, are what to read on a shared machine. Usage: node bench/profile.mjs [--preset small]
import { initTensor } from '@saccade/tensor';
import * as tf from '@tensorflow/tfjs-core';
import { applyChatTemplate, createAdamOptimizer, imageTokenCount, sftStep, VisionLanguageModel } from '../dist/index.js';

const presetIndex = process.argv.indexOf('--preset');
const preset = presetIndex >= 0 ? process.argv[presetIndex + 1] : 'small';
await initTensor();
const model = VisionLanguageModel.create({ preset });
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

const summarise = (info) => {
  // customGrad scopes ('unnamed scope') contain other kernels: leave them out of the total.
  const kernels = info.kernels.filter((kernel) => kernel.name !== 'unnamed scope');
  const total = kernels.reduce((sum, kernel) => sum + kernel.kernelTimeMs, 0);
  const byName = {};
  const byShape = {};
  for (const kernel of kernels) {
    byName[kernel.name] = (byName[kernel.name] ?? 0) + kernel.kernelTimeMs;
    const key = `${kernel.name} ${JSON.stringify(kernel.inputShapes)}`;
    byShape[key] = (byShape[key] ?? 0) + kernel.kernelTimeMs;
  }
  const top = (map, count) =>
    Object.entries(map)
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, ms]) => `${((100 * ms) / total).toFixed(1)}% ${name}`);
  return { kernels: kernels.length, totalMs: Math.round(total), byName: top(byName, 12), byShape: top(byShape, 16) };
};

const train = summarise(await tf.profile(() => void sftStep(model, optimizer, batch)));
const prompts = batch.slice(0, 8).map((item) => ({ tokens: item.tokens.slice(0, item.tokens.indexOf(model.tokenizer.assistantId) + 1), images: item.images }));
const generation = summarise(await tf.profile(async () => void (await model.generate({ prompts, n: 8, maxTokens: 16, seed: 0 }))));
console.log(JSON.stringify({ preset, train, generation }, null, 2));
