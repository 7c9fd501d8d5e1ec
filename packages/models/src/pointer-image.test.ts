import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidArgumentError } from '@saccade/spec';
import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { initBackend } from '../test/helpers';
import { pointerTerms, type PointerStates } from './grid-pointer';
import { applyChatTemplate, imageTokenCount, loadCheckpoint, MODEL_PRESETS, readModelConfig, saveCheckpoint, validateModelConfig, VisionLanguageModel, type ModelConfig, type ModelConfigOverrides, type RgbImage } from './index';
import type { ModelInputs } from './model-inputs';

beforeAll(initBackend);

/** A pale 64-px image with a 6-px red dot in cell (column, row) of the tiny preset's 4 × 4 token grid. */
function dotImage(column: number, row: number): RgbImage {
  const data = new Uint8Array(64 * 64 * 3).fill(240);
  for (let y = row * 16 + 5; y < row * 16 + 11; y++) for (let x = column * 16 + 5; x < column * 16 + 11; x++) data.set([220, 30, 30], (y * 64 + x) * 3);
  return { width: 64, height: 64, data };
}

/** The tiny preset with the pointer, the 'conv' readout (its stem) and the given pointerImage. */
function pointerModel(pointerImage: 'latest' | 'first', readout: 'conv' | 'max' | null = 'conv'): VisionLanguageModel {
  const stem = readout === 'conv' ? { stem: { channels: 4, pool: 4, pooling: 'max' as const } } : {};
  return VisionLanguageModel.create({ preset: 'tiny', seed: 11, config: { vision: { ...stem, pointer: true, pointerImage, readout } } });
}

/** A generation prompt with `count` images before the question. */
function promptTokens(model: VisionLanguageModel, count: number): number[] {
  const image = { type: 'image' as const, image: { data: new Uint8Array(), mediaType: 'image/png' as const } };
  const content = [...Array.from({ length: count }, () => image), { type: 'text' as const, text: 'Where?' }];
  return applyChatTemplate(model.tokenizer, [{ role: 'user', content }], { imageTokens: imageTokenCount(model.config), addGenerationPrompt: true }).tokens;
}

/**
 * The pointer's digit terms and the readout at a prompt's last position (after both images), from
 * one fixed decoder state: what the pointer and the readout add to the head, apart from the
 * decoder, whose attention reads every image.
 */
function termsAtEnd(model: VisionLanguageModel, images: RgbImage[]): { digits: Float32Array; readout: Float32Array } {
  const tokens = promptTokens(model, images.length);
  const [digits, readout] = tf.tidy(() => {
    const inputs = model.prepare([{ tokens, images }]);
    // The pointer's keys and the readout's values as forward builds them from the pixels (a private step of it).
    const embedded = (model as unknown as { embedWithPointerKeys(inputs: ModelInputs): { pointer: PointerStates } }).embedWithPointerKeys(inputs);
    const normed = tf.randomNormal([tokens.length, model.config.modelDimension], 0, 1, 'float32', 5) as tf.Tensor2D;
    const digitIds = Array.from({ length: 10 }, (_, digit) => model.tokenizer.encode(String(digit))[0]!);
    const terms = pointerTerms(model.config, normed, embedded.pointer, model.weight, inputs.pointer!, 1, tokens.length, digitIds);
    return [terms.digits, terms.readout!].map((tensor) => tensor.slice([tokens.length - 1, 0], [1, -1]));
  });
  const result = { digits: digits!.dataSync() as Float32Array, readout: readout!.dataSync() as Float32Array };
  tf.dispose([digits!, readout!]);
  return result;
}

function largestDifference(a: Float32Array, b: Float32Array): number {
  return a.reduce((largest, value, index) => Math.max(largest, Math.abs(value - b[index]!)), 0);
}

describe("vision.pointerImage 'first'", () => {
  it.each(['first', 'latest'] as const)('pointerImage %s: the digits name cells of the pointed-at image, the readout reads the latest image', (pointerImage) => {
    const model = pointerModel(pointerImage);
    // No two dots are each other's transposes: the gates start equal, so a transposed dot puts the same terms on the digits.
    const [first, second, other] = [dotImage(1, 2), dotImage(3, 0), dotImage(0, 1)];
    const base = termsAtEnd(model, [first, second]);
    const secondChanged = termsAtEnd(model, [first, other]);
    const firstChanged = termsAtEnd(model, [other, second]);
    const [unchanged, changed] = pointerImage === 'first' ? [secondChanged, firstChanged] : [firstChanged, secondChanged];
    // The digits see only the pointed-at image's keys: the other image's weights are exactly zero.
    expect(unchanged.digits).toEqual(base.digits);
    expect(largestDifference(changed.digits, base.digits)).toBeGreaterThan(1e-3);
    // The readout reads the latest image either way.
    expect(firstChanged.readout).toEqual(base.readout);
    expect(largestDifference(secondChanged.readout, base.readout)).toBeGreaterThan(1e-6);
    model.dispose();
  });

  it("with one image in every prompt computes what 'latest' does, bit for bit", () => {
    const [latest, first] = [pointerModel('latest', 'max'), pointerModel('first', 'max')];
    const logits = (model: VisionLanguageModel): Float32Array => {
      const tensor = tf.tidy(() => model.forward(model.prepare([{ tokens: promptTokens(model, 1), images: [dotImage(2, 1)] }, { tokens: model.tokenizer.encode('No image here.') }])).logits);
      const values = tensor.dataSync() as Float32Array;
      tensor.dispose();
      return values;
    };
    expect(logits(first)).toEqual(logits(latest));
    latest.dispose();
    first.dispose();
  });

  it('refuses a bad value, a pointerImage without the pointer, and the pointer readout with the first image', () => {
    const create = (vision: ModelConfigOverrides['vision']) => () => VisionLanguageModel.create({ preset: 'tiny', config: { vision } });
    expect(create({ pointer: true, pointerImage: 'middle' as 'first' })).toThrow("ModelConfig.vision.pointerImage must be 'latest' or 'first'; got middle.");
    expect(create({ pointerImage: 'first' })).toThrow("ModelConfig.vision.pointerImage 'first' says which image the grid pointer names cells of: it needs vision.pointer: true.");
    const tiny: ModelConfig = { ...MODEL_PRESETS.tiny, vocabularySize: 128 };
    let error: unknown;
    try {
      validateModelConfig({ ...tiny, vision: { ...tiny.vision, pointer: true, pointerImage: 'first', readout: 'pointer' } });
    } catch (caught) {
      error = caught;
    }
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      argument: 'ModelConfig.vision.pointerImage',
      value: 'first',
      message:
        "ModelConfig.vision.pointerImage 'first' needs a readout other than 'pointer': the 'pointer' readout reads the tokens the pointer looks at, which would be the first image, not the latest (a crop); use readout 'max', 'conv' or null.",
    });
    expect(() => validateModelConfig({ ...tiny, vision: { ...tiny.vision, pointerImage: undefined as unknown as 'latest' } })).toThrow(
      "ModelConfig.vision.pointerImage must be 'latest' or 'first'; got undefined.",
    );
    expect(() => readModelConfig({ ...tiny, vision: { ...tiny.vision, pointerImage: 2 } })).toThrow("ModelConfig.vision.pointerImage must be 'latest' or 'first'; got 2.");
  });

  it("reads a config without the field (the flat form, a checkpoint written before it) as 'latest', and round-trips 'first'", async () => {
    expect(MODEL_PRESETS.tiny.vision.pointerImage).toBe('latest');
    expect(MODEL_PRESETS.small.vision.pointerImage).toBe('latest');
    const flat: unknown = JSON.parse(readFileSync(new URL('../test/fixtures/flat-model-config.json', import.meta.url), 'utf8'));
    expect(readModelConfig(flat).vision.pointerImage).toBe('latest');
    const model = pointerModel('first');
    expect(readModelConfig(JSON.parse(JSON.stringify(model.config)))).toEqual(model.config);
    const folder = await mkdtemp(join(tmpdir(), 'saccade-pointer-image-'));
    try {
      // A checkpoint of a 'latest' model whose config.json predates the field.
      const latest = pointerModel('latest');
      await saveCheckpoint(folder, { model: latest });
      const stored = JSON.parse(await readFile(join(folder, 'config.json'), 'utf8')) as { vision: Record<string, unknown> };
      expect(stored.vision.pointerImage).toBe('latest');
      delete stored.vision.pointerImage;
      await writeFile(join(folder, 'config.json'), JSON.stringify(stored));
      const loaded = await loadCheckpoint(folder, { expectedConfig: latest.config });
      expect(loaded.model.config).toEqual(latest.config);
      latest.dispose();
      loaded.model.dispose();
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
    model.dispose();
  });
});
