import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as tf from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { initBackend, solidImage, targetTokenLossReference, trainStep } from '../../test/helpers';
import { countMarked, targetTokenLoss, type MarkedSequence } from '../../test/target-token-loss.mjs';
import {
  applyChatTemplate,
  createAdamOptimizer,
  DataParallel,
  imageTokenCount,
  PhaseTimer,
  setPhaseTimer,
  shardGradients,
  exampleCost,
  splitIntoShards,
  timePhase,
  VisionLanguageModel,
} from '../index';

beforeAll(initBackend);

const answers = ['<answer>Left</answer>', '<answer>Right, Up</answer>', '<answer>Up</answer>', '<answer>Down, Down, Left</answer>', '<answer>Right</answer>'];

function examples(model: VisionLanguageModel): MarkedSequence[] {
  const imageTokens = imageTokenCount(model.config);
  const image = { data: new Uint8Array(), mediaType: 'image/png' as const };
  return answers.map((answer, index) => {
    const sequence = applyChatTemplate(
      model.tokenizer,
      [
        { role: 'user', content: [{ type: 'image', image }, { type: 'text', text: 'Move?' }] },
        { role: 'assistant', content: answer },
      ],
      { imageTokens, addGenerationPrompt: false },
    );
    return { tokens: sequence.tokens, images: [solidImage(64, [40 * index, 200 - 30 * index, 90])], lossMask: sequence.assistantMask };
  });
}

let parallel: DataParallel | undefined;
afterAll(async () => parallel?.close());

it('splits a batch into shards of balanced cost, each in batch order', () => {
  const shards = splitIntoShards([5, 1, 4, 2, 3, 3], 2, (value) => value);
  expect(shards).toEqual([[5, 1, 3], [4, 2, 3]]);
  expect(splitIntoShards([7], 3, (value) => value)).toEqual([[7], [], []]);
});

it('a step with a worker thread updates the weights as a one-thread step does', async () => {
  const single = VisionLanguageModel.create({ preset: 'tiny', seed: 3 });
  const sharded = VisionLanguageModel.create({ preset: 'tiny', seed: 3 });
  const batch = examples(single);
  const singleOptimizer = createAdamOptimizer({ learningRate: 1e-2 });
  const shardedOptimizer = createAdamOptimizer({ learningRate: 1e-2 });
  parallel = await DataParallel.create(sharded, { workers: 1 });
  expect(parallel.threadCount).toBe(2);
  const before = tf.memory().numTensors;
  for (let step = 0; step < 3; step++) {
    const expected = trainStep(single, singleOptimizer, batch);
    const actual = await parallel.step(shardedOptimizer, targetTokenLossReference(), batch, { markedTokens: countMarked(batch) });
    // Shard sums round differently from the whole batch's, and Adam turns a rounding difference in a
    // near-zero gradient into a step of ±lr: after a few steps the losses agree to ~1e-5 of 4.4.
    expect(actual.loss).toBeCloseTo(expected.loss, 3);
    expect(actual.gradientNorm).toBeCloseTo(expected.gradientNorm, 3);
  }
  // Adam's slots are created on the first step; after that nothing may grow.
  const afterFirst = tf.memory().numTensors;
  await parallel.step(shardedOptimizer, targetTokenLossReference(), batch, { markedTokens: 40 });
  expect(tf.memory().numTensors).toBe(afterFirst);
  expect(afterFirst).toBeGreaterThan(before);
  const a = single.getWeights();
  const b = sharded.getWeights();
  let largest = 0;
  for (const [name, values] of a) {
    const other = b.get(name)!;
    for (let index = 0; index < values.length; index++) largest = Math.max(largest, Math.abs(values[index]! - other[index]!));
  }
  // Three matching steps, then one more on the sharded side only: within one step's size (lr 1e-2).
  expect(largest).toBeLessThan(2.5e-2);
  singleOptimizer.dispose();
  shardedOptimizer.dispose();
  single.dispose();
  sharded.dispose();
});

it('costs an example its tokens up to 512, and length² / 512 past it (the attention outgrows the rest)', () => {
  expect([0, 1, 400, 512].map((length) => exampleCost({ tokens: new Array(length) }))).toEqual([0, 1, 400, 512]);
  expect([513, 800, 1024].map((length) => exampleCost({ tokens: new Array(length) }))).toEqual([515, 1250, 2048]);
  expect(exampleCost({ images: [] })).toBe(1);
});

it("differentiates a shard over parts of at most maxTokens tokens and sums them: one pass's loss and gradients", () => {
  const model = VisionLanguageModel.create({ preset: 'tiny', seed: 5 });
  const batch = examples(model);
  const context = { markedTokens: countMarked(batch) };
  const before = tf.memory().numTensors;
  const whole = shardGradients(model, targetTokenLoss, batch, context, Infinity);
  // Each example is longer than half the bound: five parts of one example each.
  const parts = shardGradients(model, targetTokenLoss, batch, context, batch[0]!.tokens.length + 1);
  expect(parts.loss).toBeCloseTo(whole.loss, 5);
  whole.gradients.forEach((gradient, index) => {
    const difference = tf.tidy(() => tf.max(tf.abs(tf.sub(gradient, parts.gradients[index]!))).dataSync()[0]!);
    expect(difference).toBeLessThan(1e-5);
  });
  tf.dispose([...whole.gradients, ...parts.gradients]);
  expect(tf.memory().numTensors).toBe(before);
  model.dispose();
});

it('names a loss module that does not export the loss', async () => {
  const model = VisionLanguageModel.create({ preset: 'tiny', seed: 1 });
  const local = await DataParallel.create(model, { workers: 0 });
  await expect(local.computeGradients({ module: targetTokenLossReference().module, export: 'noSuchLoss' }, examples(model), {})).rejects.toThrow(
    /exports no function noSuchLoss/,
  );
  await local.close();
  model.dispose();
});

it("a step fails with the error of this thread's shard, and closing while a worker's shard is pending leaves no rejection unhandled", async () => {
  const model = VisionLanguageModel.create({ preset: 'tiny', seed: 2 });
  const pair = await DataParallel.create(model, { workers: 1 });
  const loss = { module: pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), '../../test/main-thread-failing-loss.mjs')).href, export: 'failOnMainThread' };
  const batch = examples(model);
  await expect(pair.computeGradients(loss, batch, { markedTokens: 10 })).rejects.toThrow("the main thread's shard failed");
  await pair.close();
  model.dispose();
});

it('greedy generation shared over threads gives what one thread gives, in prompt order', async () => {
  const model = VisionLanguageModel.create({ preset: 'tiny', seed: 5 });
  const prompts = examples(model).map((example) => ({
    tokens: example.tokens.slice(0, example.tokens.indexOf(model.tokenizer.assistantId) + 1),
    images: example.images ?? [],
  }));
  const shared = await DataParallel.create(model, { workers: 1 });
  const expected = await model.generate({ prompts, temperature: 0, maxTokens: 6 });
  const actual = await shared.generate({ prompts, temperature: 0, maxTokens: 6 });
  expect(actual.map((samples) => samples.map((sample) => sample.tokens))).toEqual(expected.map((samples) => samples.map((sample) => sample.tokens)));
  await shared.close();
  model.dispose();
});

it('a profiled step and generation time their phases here and on the worker, and give what unprofiled ones give', async () => {
  const plain = VisionLanguageModel.create({ preset: 'tiny', seed: 4 });
  const timed = VisionLanguageModel.create({ preset: 'tiny', seed: 4 });
  const batch = examples(plain);
  const prompts = batch.map((example) => ({ tokens: example.tokens.slice(0, example.tokens.indexOf(plain.tokenizer.assistantId) + 1), images: example.images ?? [] }));
  const plainPair = await DataParallel.create(plain, { workers: 1 });
  const timedPair = await DataParallel.create(timed, { workers: 1 });
  const plainOptimizer = createAdamOptimizer({ learningRate: 1e-2 });
  const timedOptimizer = createAdamOptimizer({ learningRate: 1e-2 });
  const context = { markedTokens: countMarked(batch) };
  const expected = await plainPair.step(plainOptimizer, targetTokenLossReference(), batch, context);
  const expectedSamples = await plainPair.generate({ prompts, n: 2, maxTokens: 5, seed: 9 });
  const timer = new PhaseTimer();
  setPhaseTimer(timer);
  try {
    const actual = await timePhase('update', () => timedPair.step(timedOptimizer, targetTokenLossReference(), batch, context));
    const samples = await timePhase('generate', () => timedPair.generate({ prompts, n: 2, maxTokens: 5, seed: 9 }));
    expect(actual).toEqual(expected);
    expect(samples).toEqual(expectedSamples);
  } finally {
    setPhaseTimer(undefined);
    timer.close();
  }
  const { phases, workers } = timer.take();
  expect(Object.keys(phases).sort()).toEqual([
    'generate',
    'generate/decode.sample',
    'generate/decode.step',
    'generate/exchange.send',
    'generate/exchange.wait',
    'generate/prefill',
    'generate/prefill/decoder',
    'generate/prefill/heads',
    'generate/prefill/prepare',
    'generate/prefill/prepare/pixels',
    'generate/prefill/image.encoder',
    'update',
    'update/adam',
    'update/backward',
    'update/clip',
    'update/exchange.receive',
    'update/exchange.receive/gradients.add',
    'update/exchange.send',
    'update/exchange.wait',
    'update/forward',
    'update/forward/decoder',
    'update/forward/heads',
    'update/forward/image.encoder',
    'update/forward/prepare',
    'update/forward/prepare/pixels',
  ].sort());
  expect(phases['update/forward']!.calls).toBe(1);
  expect(phases['update']!.ms).toBeGreaterThanOrEqual(phases['update/forward']!.ms + phases['update/backward']!.ms);
  // The worker's share: its weights, forward and backward, gradients sent back; its generation.
  expect(Object.keys(workers)).toEqual(expect.arrayContaining(['weights.assign', 'forward', 'backward', 'gradients.flatten', 'generate', 'generate/prefill', 'generate/decode.step']));
  expect(workers['weights.assign']!.calls).toBe(2);
  plainOptimizer.dispose();
  timedOptimizer.dispose();
  await plainPair.close();
  await timedPair.close();
  plain.dispose();
  timed.dispose();
});
