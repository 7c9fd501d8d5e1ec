import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { initBackend } from '../test/helpers';
import { pointerTerms, type PointerStates } from './grid-pointer';
import { applyChatTemplate, imageTokenCount, readModelConfig, VisionLanguageModel, type ReadoutImages, type RgbImage } from './index';
import type { ModelInputs } from './model-inputs';

beforeAll(initBackend);

/** A pale 64-px image with a 6-px dot of `colour` in cell (column, row) of the tiny preset's 4 × 4 token grid. */
function dotImage(column: number, row: number, colour: [number, number, number] = [220, 30, 30]): RgbImage {
  const data = new Uint8Array(64 * 64 * 3).fill(240);
  for (let y = row * 16 + 5; y < row * 16 + 11; y++) for (let x = column * 16 + 5; x < column * 16 + 11; x++) data.set(colour, (y * 64 + x) * 3);
  return { width: 64, height: 64, data };
}

/** The tiny preset with the pointer on the first image, a readout and the given readoutImages (the same weights for a seed). */
function readoutModel(readoutImages: ReadoutImages, readout: 'conv' | 'max' = 'conv'): VisionLanguageModel {
  const stem = readout === 'conv' ? { stem: { channels: 4, pool: 4, pooling: 'max' as const } } : {};
  return VisionLanguageModel.create({ preset: 'tiny', seed: 11, config: { vision: { ...stem, pointer: true, pointerImage: 'first', readout, readoutImages } } });
}

const image = { type: 'image' as const, image: { data: new Uint8Array(), mediaType: 'image/png' as const } };

function promptTokens(model: VisionLanguageModel, count: number): number[] {
  const content = [...Array.from({ length: count }, () => image), { type: 'text' as const, text: 'What?' }];
  return applyChatTemplate(model.tokenizer, [{ role: 'user', content }], { imageTokens: imageTokenCount(model.config), addGenerationPrompt: true }).tokens;
}

/** The readout at a prompt's last position (after every image), from one fixed decoder state. */
function readoutAtEnd(model: VisionLanguageModel, images: RgbImage[]): Float32Array {
  const tokens = promptTokens(model, images.length);
  const readout = tf.tidy(() => {
    const inputs = model.prepare([{ tokens, images }]);
    const embedded = (model as unknown as { embedWithPointerKeys(inputs: ModelInputs): { pointer: PointerStates } }).embedWithPointerKeys(inputs);
    const normed = tf.randomNormal([tokens.length, model.config.modelDimension], 0, 1, 'float32', 5) as tf.Tensor2D;
    const digitIds = Array.from({ length: 10 }, (_, digit) => model.tokenizer.encode(String(digit))[0]!);
    return pointerTerms(model.config, normed, embedded.pointer, model.weight, inputs.pointer!, 1, tokens.length, digitIds).readout!.slice([tokens.length - 1, 0], [1, -1]);
  });
  const values = readout.dataSync() as Float32Array;
  readout.dispose();
  return values;
}

function largestDifference(a: Float32Array, b: Float32Array): number {
  return a.reduce((largest, value, index) => Math.max(largest, Math.abs(value - b[index]!)), 0);
}

describe('vision.readoutImages', () => {
  it.each(['conv', 'max'] as const)("'all' reads every image so far, 'latest' the last only (readout %s)", (readout) => {
    const [all, latest] = [readoutModel('all', readout), readoutModel('latest', readout)];
    const [overview, first, second] = [dotImage(1, 1), dotImage(2, 0), dotImage(0, 3, [30, 30, 220])];
    const changed = dotImage(3, 2, [30, 200, 30]);
    for (const [model, reads] of [[all, [true, true, true]], [latest, [false, false, true]]] as const) {
      const base = readoutAtEnd(model, [overview, first, second]);
      const moved = [readoutAtEnd(model, [changed, first, second]), readoutAtEnd(model, [overview, changed, second]), readoutAtEnd(model, [overview, first, changed])];
      moved.forEach((values, index) => {
        if (reads[index]) expect(largestDifference(values, base)).toBeGreaterThan(1e-5);
        else expect(values).toEqual(base);
      });
    }
    all.dispose();
    latest.dispose();
  });

  it("with one image reads what 'latest' reads", () => {
    const [all, latest] = [readoutModel('all'), readoutModel('latest')];
    const only = [dotImage(2, 1)];
    // log-mean-exp of one value is the value, up to the float rounding of log(exp(·)).
    expect(largestDifference(readoutAtEnd(all, only), readoutAtEnd(latest, only))).toBeLessThan(1e-5);
    all.dispose();
    latest.dispose();
  });

  it('decodes the same with and without the KV cache (the cache holds the summary of every image in the prompt)', async () => {
    const model = readoutModel('all');
    const prompts = [1, 2, 3].map((count, index) => ({
      tokens: [...promptTokens(model, count).slice(0, -1), ...model.tokenizer.encode(' '.repeat(index)), model.tokenizer.assistantId],
      images: Array.from({ length: count }, (_, image) => dotImage((image + index) % 4, (2 * image + 1) % 4)),
    }));
    const cached = await model.generate({ prompts, temperature: 0, maxTokens: 8 });
    const uncached = await model.generate({ prompts, temperature: 0, maxTokens: 8, useCache: false });
    expect(cached.map(([sample]) => sample?.tokens)).toEqual(uncached.map(([sample]) => sample?.tokens));
    expect(cached.flat().map((sample) => sample.logProbs.map((value) => value.toFixed(4)))).toEqual(uncached.flat().map((sample) => sample.logProbs.map((value) => value.toFixed(4))));
    model.dispose();
  });

  it("needs the 'max' or 'conv' readout; 'latest' is written as nothing, 'all' round-trips", () => {
    expect(() => VisionLanguageModel.create({ preset: 'tiny', config: { vision: { pointer: true, readout: 'pointer', readoutImages: 'all' } } })).toThrow(
      "ModelConfig.vision.readoutImages 'all' pools every image's tokens by a smooth maximum: it needs readout 'max' or 'conv'; got pointer.",
    );
    expect(() => VisionLanguageModel.create({ preset: 'tiny', config: { vision: { pointer: true, readout: 'max', readoutImages: 'every' as 'all' } } })).toThrow(/readoutImages/);
    const latest = readoutModel('latest');
    expect(latest.config.vision).not.toHaveProperty('readoutImages');
    const all = readoutModel('all');
    expect(readModelConfig(JSON.parse(JSON.stringify(all.config)))).toEqual(all.config);
    expect(all.config.vision.readoutImages).toBe('all');
    latest.dispose();
    all.dispose();
  });
});
