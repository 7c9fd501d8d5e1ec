import * as tf from '@tensorflow/tfjs-core';
import { applyChatTemplate, createAdamOptimizer, DataParallel, imageTokenCount, VisionLanguageModel, type RgbImage } from '@saccade/models';
import { initTensor } from '@saccade/tensor';
import { beforeAll, expect, it } from 'vitest';
import { sftLossReference } from '../train-sft';
import { countTargets, maskedCrossEntropy, sftShardLoss, sftStep, type SftExample } from './sft-loss';

beforeAll(() => initTensor());

const pairs: [[number, number, number], string][] = [
  [[220, 40, 40], '<answer>Left</answer>'],
  [[40, 200, 40], '<answer>Right</answer>'],
  [[40, 40, 220], '<answer>Up</answer>'],
  [[230, 230, 40], '<answer>Down</answer>'],
];

function solidImage(size: number, [red, green, blue]: [number, number, number]): RgbImage {
  const data = new Uint8Array(size * size * 3);
  for (let pixel = 0; pixel < size * size; pixel++) data.set([red, green, blue], pixel * 3);
  return { width: size, height: size, data };
}

function examples(model: VisionLanguageModel): SftExample[] {
  const image = { data: new Uint8Array(), mediaType: 'image/png' as const };
  return pairs.map(([colour, answer]) => {
    const sequence = applyChatTemplate(
      model.tokenizer,
      [
        { role: 'user', content: [{ type: 'image', image }, { type: 'text', text: 'Move?' }] },
        { role: 'assistant', content: answer },
      ],
      { imageTokens: imageTokenCount(model.config), addGenerationPrompt: false },
    );
    return { tokens: sequence.tokens, images: [solidImage(64, colour)], lossMask: sequence.assistantMask };
  });
}

it('is the mean negative log-probability of the masked tokens (column 0 never counts), and its shards add up to it', () => {
  const model = VisionLanguageModel.create({ preset: 'tiny', seed: 0 });
  const batch = examples(model);
  // A mask on column 0 is ignored: nothing predicts the first token.
  batch[0] = { ...batch[0]!, lossMask: [1, ...batch[0]!.lossMask.slice(1)] };
  const targets = batch.map((example) => example.lossMask.slice(1).reduce((sum, bit) => sum + bit, 0));
  expect(countTargets(batch)).toBe(targets.reduce((sum, count) => sum + count, 0));
  const inputs = model.prepare(batch, 'right');
  const logProbs = tf.tidy(() => model.logProbsAndValues(inputs).logProbs.arraySync());
  inputs.dispose();
  let sum = 0;
  batch.forEach((example, row) => example.lossMask.forEach((bit, column) => (sum += column > 0 && bit ? -logProbs[row]![column]! : 0)));
  const loss = maskedCrossEntropy(model, batch);
  expect(loss.dataSync()[0]).toBeCloseTo(sum / countTargets(batch), 5);
  const context = { targetTokens: countTargets(batch) };
  const halves = [sftShardLoss(model, batch.slice(0, 2), context).loss, sftShardLoss(model, batch.slice(2), context).loss];
  expect(halves[0]!.dataSync()[0]! + halves[1]!.dataSync()[0]!).toBeCloseTo(loss.dataSync()[0]!, 5);
  tf.dispose([loss, ...halves]);
  model.dispose();
});

it('refuses a loss mask that is not one entry per token', () => {
  const model = VisionLanguageModel.create({ preset: 'tiny', seed: 0 });
  const [first, second] = examples(model);
  expect(() => maskedCrossEntropy(model, [first!, { ...second!, lossMask: second!.lossMask.slice(1) }])).toThrow(
    `Invalid argument examples[1].lossMask: expected ${second!.tokens.length} entries (one per token), received "${second!.tokens.length - 1} entries".`,
  );
  model.dispose();
});

it('overfits image–answer pairs with sftStep: the answer depends on the image only', async () => {
  const model = VisionLanguageModel.create({ preset: 'tiny', seed: 0 });
  const batch = examples(model);
  const optimizer = createAdamOptimizer({ learningRate: 1e-2 });
  let loss = Infinity;
  for (let step = 0; step < 150 && loss > 0.01; step++) loss = sftStep(model, optimizer, batch).loss;
  expect(loss).toBeLessThan(0.05);
  const prompts = batch.map((example) => ({ tokens: example.tokens.slice(0, example.tokens.indexOf(model.tokenizer.assistantId) + 1), images: example.images ?? [] }));
  const answers = await model.generate({ prompts, temperature: 0, maxTokens: 12 });
  expect(answers.map(([sample]) => sample?.text)).toEqual(pairs.map(([, answer]) => answer));
  expect(answers.every(([sample]) => sample?.finishReason === 'stop')).toBe(true);
  optimizer.dispose();
  model.dispose();
});

it('a data-parallel step on sftLossReference (a worker thread imports @saccade/trainers/losses) matches sftStep', async () => {
  const single = VisionLanguageModel.create({ preset: 'tiny', seed: 3 });
  const sharded = VisionLanguageModel.create({ preset: 'tiny', seed: 3 });
  const batch = examples(single);
  const singleOptimizer = createAdamOptimizer({ learningRate: 1e-2 });
  const shardedOptimizer = createAdamOptimizer({ learningRate: 1e-2 });
  const parallel = await DataParallel.create(sharded, { workers: 1 });
  try {
    expect(sftLossReference().export).toBe('sftShardLoss');
    for (let step = 0; step < 2; step++) {
      const expected = sftStep(single, singleOptimizer, batch);
      const actual = await parallel.step(shardedOptimizer, sftLossReference(), batch, { targetTokens: countTargets(batch) });
      // Shard sums round differently from the whole batch's (see models' DataParallel test).
      expect(actual.loss).toBeCloseTo(expected.loss, 4);
      expect(actual.gradientNorm).toBeCloseTo(expected.gradientNorm, 4);
    }
  } finally {
    await parallel.close();
    singleOptimizer.dispose();
    shardedOptimizer.dispose();
    single.dispose();
    sharded.dispose();
  }
});
