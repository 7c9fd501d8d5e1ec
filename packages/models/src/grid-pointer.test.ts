import { beforeAll, expect, it } from 'vitest';
import { initBackend, trainStep } from '../test/helpers';
import type { MarkedSequence } from '../test/target-token-loss.mjs';
import { applyChatTemplate, createAdamOptimizer, imageTokenCount, VisionLanguageModel, type RgbImage } from './index';

beforeAll(initBackend);

/** A pale 64-px image with one 4-px red dot in cell (column, row) of a 4 × 4 grid, at a spot the seed picks. */
function dotImage(column: number, row: number, seed: number): RgbImage {
  const size = 64;
  const data = new Uint8Array(size * size * 3).fill(240);
  const x0 = column * 16 + ((seed * 7) % 12);
  const y0 = row * 16 + ((seed * 5) % 12);
  for (let y = y0; y < y0 + 4; y++) for (let x = x0; x < x0 + 4; x++) data.set([220, 30, 30], (y * size + x) * 3);
  return { width: size, height: size, data };
}

/** Examples whose answer names the dot's cell in the first image; with `images` 2 a second image follows, its dot elsewhere. */
function pointingExamples(model: VisionLanguageModel, count: number, offset: number, images: 1 | 2 = 1): (MarkedSequence & { cell: [number, number] })[] {
  const image = { type: 'image' as const, image: { data: new Uint8Array(), mediaType: 'image/png' as const } };
  return Array.from({ length: count }, (_, index) => {
    const seed = index + offset;
    const cell: [number, number] = [(seed * 3) % 4, Math.floor(seed / 4) % 4];
    const sequence = applyChatTemplate(
      model.tokenizer,
      [
        { role: 'user', content: [...Array.from({ length: images }, () => image), { type: 'text', text: 'Where?' }] },
        { role: 'assistant', content: `[${cell[0]},${cell[1]}]` },
      ],
      { imageTokens: imageTokenCount(model.config), addGenerationPrompt: false },
    );
    const second = images === 2 ? [dotImage((cell[0] + 1) % 4, (cell[1] + 2) % 4, seed + 1)] : [];
    return { tokens: sequence.tokens, lossMask: sequence.assistantMask, images: [dotImage(cell[0], cell[1], seed), ...second], cell };
  });
}

async function pointingAccuracy(gridPointer: boolean): Promise<number> {
  const model = VisionLanguageModel.create({ preset: 'tiny', seed: 0, config: { vision: { pointer: gridPointer } } });
  const train = pointingExamples(model, 64, 0);
  const held = pointingExamples(model, 32, 1000);
  const optimizer = createAdamOptimizer({ learningRate: 1e-2 });
  for (let step = 0; step < 40; step++) trainStep(model, optimizer, train.slice((step % 4) * 16, (step % 4) * 16 + 16));
  const prompts = held.map((example) => ({ tokens: example.tokens.slice(0, example.tokens.lastIndexOf(model.tokenizer.assistantId) + 1), images: example.images ?? [] }));
  const answers = await model.generate({ prompts, temperature: 0, maxTokens: 8 });
  const right = answers.filter(([sample], index) => sample?.text === `[${held[index]!.cell[0]},${held[index]!.cell[1]}]`).length;
  optimizer.dispose();
  model.dispose();
  return right / held.length;
}

it('points: digits after a bracket name the cell of a small dot, learned in 40 steps with the grid pointer', async () => {
  const withPointer = await pointingAccuracy(true);
  const without = await pointingAccuracy(false);
  // Measured: 1.0 with the pointer, 0.0625 (chance) without it.
  expect(withPointer).toBeGreaterThanOrEqual(0.9);
  expect(without).toBeLessThan(withPointer - 0.5);
});

it.each([
  [undefined, 'latest', 1],
  ['pointer', 'latest', 1],
  ['max', 'latest', 1],
  ['conv', 'latest', 1],
  ['conv', 'latest', 2],
  ['conv', 'first', 1],
  ['conv', 'first', 2],
] as const)('decodes the same with and without the KV cache (the cache keeps the pointed-at image pointer keys; readout %s, pointerImage %s, %i image(s) a prompt)', async (imageReadout, pointerImage, images) => {
  const stem = imageReadout === 'conv' ? { stem: { channels: 4, pool: 4, pooling: 'max' as const } } : {};
  const model = VisionLanguageModel.create({ preset: 'tiny', seed: 3, config: { vision: { ...stem, pointer: true, pointerImage, readout: imageReadout ?? null } } });
  const examples = pointingExamples(model, 6, 50, images);
  // Prompts of different lengths (left padding) and one without an image (no pointer there).
  const prompts = examples.map((example, index) => {
    const end = example.tokens.lastIndexOf(model.tokenizer.assistantId) + 1;
    return index === 5 ? { tokens: model.tokenizer.encode('Where?') } : { tokens: [...example.tokens.slice(0, end - 1), ...model.tokenizer.encode(' '.repeat(index)), model.tokenizer.assistantId], images: example.images ?? [] };
  });
  const cached = await model.generate({ prompts, temperature: 0, maxTokens: 10 });
  const uncached = await model.generate({ prompts, temperature: 0, maxTokens: 10, useCache: false });
  expect(cached.map(([sample]) => sample?.tokens)).toEqual(uncached.map(([sample]) => sample?.tokens));
  expect(cached.flat().map((sample) => sample.logProbs.map((value) => value.toFixed(3)))).toEqual(uncached.flat().map((sample) => sample.logProbs.map((value) => value.toFixed(3))));
  model.dispose();
});

it('refuses a readout without the pointer masks it reads through, and an unknown readout', () => {
  expect(() => VisionLanguageModel.create({ preset: 'tiny', config: { vision: { readout: 'max' } } })).toThrow(
    "ModelConfig.vision.readout reads the latest image through the grid pointer's masks: it needs vision.pointer: true.",
  );
  expect(() => VisionLanguageModel.create({ preset: 'tiny', config: { vision: { pointer: true, readout: 'mean' as 'max' } } })).toThrow(
    "ModelConfig.vision.readout must be 'pointer', 'max' or 'conv'; got mean.",
  );
  expect(() => VisionLanguageModel.create({ preset: 'tiny', config: { vision: { pointer: true, readout: 'conv' } } })).toThrow(
    "ModelConfig.vision.readout 'conv' convolves the pixel stem's blocks of each patch: it needs vision.stem and vision.spatialMerge 1; got stem null, spatialMerge 1.",
  );
});

it('refuses a pointer over more than ten cells a side: a digit names one cell', () => {
  expect(() => VisionLanguageModel.create({ preset: 'tiny', config: { imageSize: 192, patchSize: 16, vision: { pointer: true } } })).toThrow(
    'ModelConfig.vision.pointer names cells with one digit each: at most 10 image tokens per side; got 12.',
  );
});
