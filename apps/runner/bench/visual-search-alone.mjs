#!/usr/bin/env node
// The visual-search recipe's two skills measured alone (docs/training.md: "Reading, measured alone"
// and "Pointing, measured alone"): SFT of the built-in model on one turn, greedy held-out answers
// every --every steps, one JSON line per evaluation. Imports the built dists (`pnpm build` first).
//
//   node apps/runner/bench/visual-search-alone.mjs reading  [--centre cell|exact] [--jitter <px>] [--config <json>] …
//   node apps/runner/bench/visual-search-alone.mjs pointing [--config <json>] …
//
// reading:  the 364-px crop around a point (the target's cell centre on the recipe's 8 × 8 frame, as
//           a call on that cell returns it; or the target's centre; plus a uniform jitter of ± --jitter
//           px of the original), seen at 128 px; "Star, cross or ring?" → the shape's name.
// pointing: the whole 2048-px image seen at 128 px; "Where is the red shape?" →
//           {"coordinate":[column,row]}, the target's cell of the 8 × 8 frame; scored by the exact
//           cell and by the 3 × 3 cells around it.
// Common: VisualSearch-v1's tasks (difficulty 0, shape question, red target; --target-grid 8 for the
// grid recipe's, 0 for a target anywhere; or --level <name>, one of the source's named levels, e.g.
// lookalikes: red look-alikes of the target's size, "Where is the red star, cross or ring?"),
// --tasks training tasks and --held held-out ones, the grid recipe's
// model (`small`, its model.config) with --config's changes (null drops a setting), Adam at
// --learning-rate, batch --batch.
// Reward: with --reward-steps N, reading goes on for N steps learned from its reward alone after the
// --steps SFT steps: each step samples --samples answers (temperature --temperature) for each of
// --reward-crops training crops, scores them 1/0 by the exact shape, gives each sample its group's
// normalised advantage (GRPO; uniform groups left out) and takes one Adam step (--reward-learning-rate)
// on the trainers' policy loss, as GRPO's update does; the lines report the greedy held-out score,
// the mean sampled success and the sampler–trainer gap. Whether the model can learn to read from a
// reward at all, apart from the multi-turn episodes. --miss <fraction>: that share of the reward
// crops are centred on another cell of the frame than the target's (a look that missed: the answer
// cannot be read there, as after a missed call in the recipe), drawn afresh each time.
import { parseArgs } from 'node:util';
import { createVisualSearchSource } from '@saccade/env-procedural';
import { crop } from '@saccade/image';
import { applyChatTemplate, applyLoss, createAdamOptimizer, createRandom, decodeImageData, imageTokenCount, VisionLanguageModel } from '@saccade/models';
import { broadcastOverMask, computeGrpoAdvantages, policyShardLoss, samplingDistribution, sftStep } from '@saccade/trainers';
import { initTensor, tf } from '@saccade/tensor';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    steps: { type: 'string', default: '150' },
    every: { type: 'string', default: '50' },
    tasks: { type: 'string', default: '2000' },
    held: { type: 'string', default: '200' },
    batch: { type: 'string', default: '32' },
    'learning-rate': { type: 'string', default: '3e-3' },
    config: { type: 'string', default: '{}' },
    centre: { type: 'string', default: 'cell' },
    jitter: { type: 'string', default: '0' },
    'target-grid': { type: 'string', default: '8' },
    level: { type: 'string' },
    seed: { type: 'string', default: '0' },
    'reward-steps': { type: 'string', default: '0' },
    'reward-crops': { type: 'string', default: '8' },
    samples: { type: 'string', default: '8' },
    temperature: { type: 'string', default: '1' },
    'reward-learning-rate': { type: 'string', default: '1e-4' },
    miss: { type: 'string', default: '0' },
  },
});
const skill = positionals[0];
if (skill !== 'reading' && skill !== 'pointing') {
  console.error('usage: visual-search-alone.mjs reading|pointing [--steps n] [--every n] [--tasks n] [--held n] [--batch n] [--learning-rate x] [--config json] [--centre cell|exact] [--jitter px] [--target-grid 8|0 | --level name] [--seed n]');
  process.exit(2);
}
const number = (name) => {
  const value = Number(values[name]);
  if (!Number.isFinite(value)) {
    console.error(`--${name}: expected a number, received ${values[name]}`);
    process.exit(2);
  }
  return value;
};
const [steps, every, taskCount, heldCount, batchSize, learningRate, jitter, targetGrid, seed] = ['steps', 'every', 'tasks', 'held', 'batch', 'learning-rate', 'jitter', 'target-grid', 'seed'].map(number);
const [rewardSteps, rewardCrops, samples, temperature, rewardLearningRate, miss] = ['reward-steps', 'reward-crops', 'samples', 'temperature', 'reward-learning-rate', 'miss'].map(number);
if (!(miss >= 0 && miss < 1)) {
  console.error(`--miss: expected a fraction in [0, 1), received ${values.miss}`);
  process.exit(2);
}
if (rewardSteps > 0 && skill !== 'reading') {
  console.error('--reward-steps: expected the reading skill (pointing is scored by cells, not by one word)');
  process.exit(2);
}
if (values.centre !== 'cell' && values.centre !== 'exact') {
  console.error(`--centre: expected cell or exact, received ${values.centre}`);
  process.exit(2);
}

// The grid recipe's model (apps/runner/recipes/visual-search-grid.yaml) and its frame and crop.
const RECIPE_MODEL = { imageSize: 128, patchSize: 16, vision: { stem: { channels: 16, pool: 4, pooling: 'max' }, grid: null, pointer: true, readout: 'pointer' } };
const FRAME = 8;
const OFFSET = 182;
const QUESTION = { reading: 'Star, cross or ring?', pointing: values.level && values.level !== 'anywhere' ? 'Where is the red star, cross or ring?' : 'Where is the red shape?' }[skill];

await initTensor();
// --config changes the recipe's settings, merged into them key by key; null turns a module off
// (e.g. {"vision": {"readout": null}}: no readout; {"vision": {"stem": {"pool": 8}}}: 8 × 8 blocks).
const isMapping = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
const merge = (base, change) =>
  Object.fromEntries([...new Set([...Object.keys(base), ...Object.keys(change)])].map((key) => [key, isMapping(base[key]) && isMapping(change[key]) ? merge(base[key], change[key]) : key in change ? change[key] : base[key]]));
const config = merge(RECIPE_MODEL, JSON.parse(values.config));
const model = VisionLanguageModel.create({ preset: 'small', seed, config });
const view = model.config.imageSize;
const jitterRandom = createRandom(seed + 1);

/** One task as an SFT example: the image the model sees, the prompt and the answer (`missed`: reading's crop centred on another cell). */
async function example(task, missed = false) {
  const [image] = task.images;
  const { target } = task.metadata;
  const side = image.width / FRAME;
  const cell = [Math.floor(target.x / side), Math.floor(target.y / side)];
  let seen;
  let answer;
  if (skill === 'reading') {
    let [cx, cy] = values.centre === 'exact' ? [target.x, target.y] : [(cell[0] + 0.5) * side, (cell[1] + 0.5) * side];
    if (missed) {
      // Another cell of the frame, at least two cells away so the crop cannot hold the target.
      let other;
      do other = [Math.floor(jitterRandom() * FRAME), Math.floor(jitterRandom() * FRAME)];
      while (Math.max(Math.abs(other[0] - cell[0]), Math.abs(other[1] - cell[1])) < 2);
      [cx, cy] = [(other[0] + 0.5) * side, (other[1] + 0.5) * side];
    }
    const [dx, dy] = [(jitterRandom() * 2 - 1) * jitter, (jitterRandom() * 2 - 1) * jitter];
    const box = { x1: cx + dx - OFFSET, y1: cy + dy - OFFSET, x2: cx + dx + OFFSET, y2: cy + dy + OFFSET };
    const cropped = await crop(image, box, { resize: { width: view, height: view, fit: 'fill' } });
    seen = await decodeImageData({ data: cropped.data, mediaType: cropped.mediaType, width: view, height: view }, view);
    answer = task.answer;
  } else {
    seen = await decodeImageData(image, view);
    answer = JSON.stringify({ coordinate: cell });
  }
  const messages = [
    { role: 'user', content: [{ type: 'image', image: { data: new Uint8Array(), mediaType: 'image/png' } }, { type: 'text', text: QUESTION }] },
    { role: 'assistant', content: answer },
  ];
  const sequence = applyChatTemplate(model.tokenizer, messages, { imageTokens: imageTokenCount(model.config), addGenerationPrompt: false });
  return { tokens: sequence.tokens, images: [seen], lossMask: sequence.assistantMask, answer, cell };
}

const options = values.level ? { level: values.level } : { difficulty: 0, question: 'shape', targetColour: 'red', ...(targetGrid > 0 ? { targetGrid } : {}) };
const started = performance.now();
const build = async (split, count) => {
  const source = createVisualSearchSource({ ...options, split });
  const examples = [];
  for (let index = 0; index < count; index++) {
    const task = await source.get(index);
    examples.push({ ...(await example(task)), task });
  }
  return examples;
};
const training = await build('train', taskCount);
const held = await build('test', heldCount);
const prepared = (performance.now() - started) / 1000;

const optimizer = createAdamOptimizer({ learningRate });
const order = createRandom(seed + 2);

/** Greedy answers on `examples`: exact matches, and for pointing the share within one cell. */
async function score(examples) {
  const prompts = examples.map((entry) => ({ tokens: entry.tokens.slice(0, entry.tokens.indexOf(model.tokenizer.assistantId) + 1), images: entry.images }));
  const results = { exact: 0, near: 0 };
  for (let start = 0; start < prompts.length; start += 50) {
    const outputs = await model.generate({ prompts: prompts.slice(start, start + 50), temperature: 0, maxTokens: 24 });
    outputs.forEach(([sample], offset) => {
      const expected = examples[start + offset];
      const text = sample.text.trim();
      if (text === expected.answer) results.exact++;
      if (skill === 'pointing') {
        const match = /\[\s*(\d+)\s*,\s*(\d+)\s*\]/.exec(text);
        if (match && Math.abs(Number(match[1]) - expected.cell[0]) <= 1 && Math.abs(Number(match[2]) - expected.cell[1]) <= 1) results.near++;
      }
    });
  }
  return { exact: results.exact / examples.length, ...(skill === 'pointing' ? { near: results.near / examples.length } : {}) };
}

const trainedAt = performance.now();
for (let step = 1; step <= steps; step++) {
  const batch = Array.from({ length: batchSize }, () => training[Math.floor(order() * training.length)]);
  const { loss } = sftStep(model, optimizer, batch);
  if (step % every === 0 || step === steps) {
    const heldOut = await score(held);
    const line = { skill, step, loss: Number(loss.toFixed(4)), heldOut, secondsPerStep: Number(((performance.now() - trainedAt) / 1000 / step).toFixed(2)) };
    if (step === steps) Object.assign(line, { training: await score(training.slice(0, heldCount)), preparedSeconds: Number(prepared.toFixed(1)), settings: { ...values, model: model.config } });
    console.log(JSON.stringify(line));
  }
}

// Reading learned from its reward alone (GRPO's update on one-turn episodes), from where SFT left it.
if (rewardSteps > 0) {
  const rewardOptimizer = createAdamOptimizer({ learningRate: rewardLearningRate });
  const sampling = samplingDistribution(model, temperature);
  const promptOf = (entry) => ({ tokens: entry.tokens.slice(0, entry.tokens.indexOf(model.tokenizer.assistantId) + 1), images: entry.images });
  const rewardStarted = performance.now();
  let sampledSuccess = 0;
  let sampledCount = 0;
  let gap = 0;
  for (let step = 1; step <= rewardSteps; step++) {
    const drawn = Array.from({ length: rewardCrops }, () => training[Math.floor(order() * training.length)]);
    const crops = await Promise.all(drawn.map((entry) => (miss > 0 && order() < miss ? example(entry.task, true) : entry)));
    const outputs = await model.generate({ prompts: crops.map(promptOf), n: samples, temperature, maxTokens: 24, seed: seed * 100_003 + step });
    const examples = [];
    outputs.forEach((group, index) => {
      const prompt = promptOf(crops[index]);
      const scores = group.map((sample) => (sample.text.trim() === crops[index].answer ? 1 : 0));
      sampledSuccess += scores.reduce((sum, value) => sum + value, 0);
      sampledCount += scores.length;
      // A uniform group has nothing to compare (GRPO's skipUniformGroups).
      if (scores.every((value) => value === scores[0])) return;
      const advantages = computeGrpoAdvantages({ scores, groupIds: scores.map(() => index) });
      group.forEach((sample, position) => {
        const tokens = [...prompt.tokens, ...sample.tokens];
        const lossMask = tokens.map((_, column) => (column >= prompt.tokens.length ? 1 : 0));
        examples.push({
          tokens,
          images: prompt.images,
          lossMask,
          advantages: Array.from(broadcastOverMask(advantages[position], lossMask)),
          oldLogProbs: [...prompt.tokens.map(() => 0), ...sample.logProbs],
          sampledLogProbs: true,
        });
      });
    });
    if (examples.length > 0) {
      const tokenCount = examples.reduce((sum, example) => sum + example.lossMask.reduce((total, mask) => total + mask, 0), 0);
      const context = { aggregation: 'token-mean', tokenCount, sequenceCount: examples.length, sampledTokenCount: tokenCount, clipLow: 0.2, clipHigh: 0.28, klCoefficient: 0, entropyCoefficient: 0, sampling };
      applyLoss(model, rewardOptimizer, () => {
        const output = policyShardLoss(model, examples, context);
        const measured = output.metrics?.['logprobGap'];
        if (measured) gap = Math.max(gap, measured.dataSync()[0] ?? 0);
        tf.dispose(Object.values(output.metrics ?? {}));
        return output.loss;
      });
    }
    if (step % every === 0 || step === rewardSteps) {
      const heldOut = await score(held);
      console.log(JSON.stringify({ skill, phase: 'reward', step: steps + step, heldOut, sampledSuccess: Number((sampledSuccess / Math.max(sampledCount, 1)).toFixed(4)), maxLogprobGap: gap, secondsPerStep: Number(((performance.now() - rewardStarted) / 1000 / step).toFixed(2)), ...(step === rewardSteps ? { settings: { samples, temperature, rewardCrops, rewardLearningRate, miss } } : {}) }));
      sampledSuccess = 0;
      sampledCount = 0;
    }
  }
  rewardOptimizer.dispose();
}
model.dispose();
optimizer.dispose();
