import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { InvalidArgumentError } from '@saccade/spec';
import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { initBackend } from '../test/helpers';
import { applyModelConfigOverrides, imageTokenCount, MODEL_PRESETS, orderModelConfig, readModelConfig, validateModelConfig, type ModelConfig, type ModelConfigOverrides, type ModelPresetName } from './model-config';
import { VisionLanguageModel } from './vision-language-model';

const small: ModelConfig = { ...MODEL_PRESETS.small, vocabularySize: 128 };
const tiny: ModelConfig = { ...MODEL_PRESETS.tiny, vocabularySize: 128 };

/** The visual-search recipe's model on the tiny preset: every vision switch on. */
const recipe: ModelConfig = {
  ...tiny,
  imageSize: 128,
  vision: { stem: { channels: 16, pool: 4, pooling: 'max' }, grid: null, spatialMerge: 1, pointer: true, pointerImage: 'latest', readout: 'pointer' },
};

/** Each weight's bytes by name, as a digest: bit-for-bit equality in milliseconds, where toEqual over the small preset's 1.5 M floats takes seconds. */
function weightDigests(model: VisionLanguageModel): Map<string, string> {
  return new Map([...model.getWeights()].map(([name, values]) => [name, createHash('sha256').update(new Uint8Array(values.buffer, values.byteOffset, values.byteLength)).digest('hex')]));
}

/** What a call throws, for checking its class and fields. */
function thrown(call: () => unknown): unknown {
  try {
    call();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw');
}

describe('validateModelConfig', () => {
  it('accepts the presets', () => {
    expect(validateModelConfig(small)).toBe(small);
    expect(validateModelConfig(tiny).vision).toEqual({ stem: null, grid: null, spatialMerge: 1, pointer: false, pointerImage: 'latest', readout: null });
    expect(small.vision.grid).toEqual({ layers: 8, cellPatches: 2 });
  });

  it('names the field and the value a config cannot build a model with', () => {
    const withVision = (vision: Partial<ModelConfig['vision']>): ModelConfig => ({ ...small, vision: { ...small.vision, ...vision } });
    expect(() => validateModelConfig(withVision({ grid: { layers: 8, cellPatches: 3 } }))).toThrow(
      'ModelConfig: patches per side (8) must be a multiple of vision.grid.cellPatches (3).',
    );
    expect(() => validateModelConfig(withVision({ grid: { layers: -1, cellPatches: 2 } }))).toThrow('ModelConfig.vision.grid.layers must be a positive integer; got -1.');
    expect(() => validateModelConfig(withVision({ stem: { channels: 2.5, pool: 1, pooling: 'mean' } }))).toThrow(
      'ModelConfig.vision.stem.channels must be a positive integer; got 2.5.',
    );
    expect(() => validateModelConfig(withVision({ stem: { channels: 8, pool: 3, pooling: 'mean' } }))).toThrow(
      'ModelConfig.vision.stem.pool must be a positive divisor of patchSize (8); got 3.',
    );
    expect(() => validateModelConfig(withVision({ stem: { channels: 8, pool: 2, pooling: 'max', kernel: 4 } }))).toThrow(
      'ModelConfig.vision.stem.kernel must be an odd positive integer (1: per pixel); got 4.',
    );
    expect(() => validateModelConfig(withVision({ stem: { channels: 8, pool: 2, pooling: 'median' as 'max' } }))).toThrow(
      "ModelConfig.vision.stem.pooling must be 'mean' or 'max'; got median.",
    );
    expect(() => validateModelConfig({ ...small, patchSize: 7 })).toThrow('ModelConfig.imageSize (64) must be a multiple of patchSize (7).');
    const error = thrown(() => validateModelConfig(withVision({ readout: 'max' })));
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      argument: 'ModelConfig.vision.readout',
      value: 'max',
      message: "ModelConfig.vision.readout reads the latest image through the grid pointer's masks: it needs vision.pointer: true.",
    });
  });
});

describe('readModelConfig', () => {
  it('reads the flat form of checkpoints written before the grouping into the grouped config', () => {
    // config.json of a checkpoint saved before the vision switches were grouped (tiny, the recipe's switches).
    const stored: unknown = JSON.parse(readFileSync(new URL('../test/fixtures/flat-model-config.json', import.meta.url), 'utf8'));
    expect(readModelConfig(stored)).toEqual({
      vocabularySize: 120,
      imageSize: 128,
      patchSize: 16,
      modelDimension: 32,
      headCount: 2,
      encoderLayers: 1,
      decoderLayers: 1,
      mlpRatio: 2,
      maxSequenceLength: 256,
      layerNormEpsilon: 0.00001,
      vision: { stem: { channels: 4, pool: 4, pooling: 'max' }, grid: null, spatialMerge: 1, pointer: true, pointerImage: 'latest', readout: 'pointer' },
    });
    // The small preset as a flat checkpoint held it: grid layers on, everything else absent.
    const flatSmall = { imageSize: 64, patchSize: 8, mergeSize: 1, gridLayers: 8, gridMerge: 2, maxSequenceLength: 512, layerNormEpsilon: 1e-5, modelDimension: 128, headCount: 4, encoderLayers: 1, decoderLayers: 2, mlpRatio: 4, vocabularySize: 128 };
    expect(readModelConfig(flatSmall)).toEqual(small);
    // gridLayers 0 and stemChannels 0 are the modules off, whatever gridMerge and stemPool say.
    expect(readModelConfig({ ...flatSmall, gridLayers: 0, gridMerge: 4, stemChannels: 0, stemPool: 2 }).vision).toEqual({ stem: null, grid: null, spatialMerge: 1, pointer: false, pointerImage: 'latest', readout: null });
  });

  it('reads the grouped form as it is, and a JSON round trip of a config reads back equal', () => {
    expect(readModelConfig(JSON.parse(JSON.stringify(recipe)))).toEqual(recipe);
  });

  it('names the field of a bad, missing or unknown value, in the form it was written in', () => {
    const flat = { imageSize: 64, patchSize: 8, mergeSize: 1, gridLayers: 0, gridMerge: 1, maxSequenceLength: 512, layerNormEpsilon: 1e-5, modelDimension: 32, headCount: 2, encoderLayers: 1, decoderLayers: 1, mlpRatio: 2, vocabularySize: 120 };
    const error = thrown(() => readModelConfig({ ...flat, stemChannels: 4, stemPooling: 'median' }));
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ argument: 'ModelConfig.stemPooling', value: 'median', message: "ModelConfig.stemPooling must be 'mean' or 'max'; got median." });
    expect(() => readModelConfig({ ...flat, gridPointer: 'yes' })).toThrow('ModelConfig.gridPointer must be true or false; got yes.');
    expect(() => readModelConfig({ ...flat, gridMerge: undefined })).toThrow('ModelConfig.gridMerge must be a positive integer; got nothing.');
    expect(() => readModelConfig({ ...flat, stemSize: 3 })).toThrow('ModelConfig has no field stemSize.');
    expect(() => readModelConfig({ ...recipe, vision: { ...recipe.vision, stem: { channels: 16, pool: 4, pooling: 'median' } } })).toThrow(
      "ModelConfig.vision.stem.pooling must be 'mean' or 'max'; got median.",
    );
    expect(() => readModelConfig({ ...recipe, vision: { ...recipe.vision, gridPointer: true } })).toThrow('ModelConfig has no field vision.gridPointer.');
    expect(() => readModelConfig({ ...recipe, gridPointer: true })).toThrow(
      'ModelConfig mixes the grouped form (vision) with the flat form\'s gridPointer: write gridPointer as vision.pointer.',
    );
    expect(() => readModelConfig('small')).toThrow('ModelConfig must be an object; got small.');
  });
});

describe('applyModelConfigOverrides', () => {
  it('merges grouped overrides switch by switch: a stem or grid object into the base one, null turns it off', () => {
    expect(applyModelConfigOverrides(recipe, { vision: { stem: { pool: 8 } } }).vision.stem).toEqual({ channels: 16, pool: 8, pooling: 'max' });
    // A convolution's side is written only when it is one: a per-pixel stem's config reads as before.
    expect(applyModelConfigOverrides(recipe, { vision: { stem: { kernel: 5 } } }).vision.stem).toEqual({ channels: 16, pool: 4, pooling: 'max', kernel: 5 });
    expect(orderModelConfig(applyModelConfigOverrides(recipe, { vision: { stem: { kernel: 1 } } })).vision.stem).toEqual({ channels: 16, pool: 4, pooling: 'max' });
    expect(applyModelConfigOverrides(recipe, { vision: { readout: null, stem: null } }).vision).toEqual({ stem: null, grid: null, spatialMerge: 1, pointer: true, pointerImage: 'latest', readout: null });
    expect(applyModelConfigOverrides(tiny, { imageSize: 32, vision: { stem: { channels: 4 }, grid: { layers: 2 } } })).toEqual({
      ...tiny,
      imageSize: 32,
      vision: { ...tiny.vision, stem: { channels: 4, pool: 1, pooling: 'mean' }, grid: { layers: 2, cellPatches: 1 } },
    });
    expect(() => applyModelConfigOverrides(tiny, { vision: { stem: { pooling: 'max' } } })).not.toThrow();
    expect(() => validateModelConfig(applyModelConfigOverrides(tiny, { vision: { stem: { pooling: 'max' } } }))).toThrow(
      'ModelConfig.vision.stem.channels must be a positive integer; got undefined.',
    );
  });

  it('applies flat overrides to the flat form of the base, as they were applied before the grouping', () => {
    // The Sokoban example's 8-px cells on the small preset: its grid layers kept, one patch a cell.
    expect(applyModelConfigOverrides(small, { imageSize: 48, patchSize: 8, gridMerge: 1 })).toEqual({ ...small, imageSize: 48, vision: { ...small.vision, grid: { layers: 8, cellPatches: 1 } } });
    expect(applyModelConfigOverrides(small, { imageSize: 128, patchSize: 16, gridLayers: 0, gridPointer: true, stemChannels: 16, stemPool: 4, stemPooling: 'max', imageReadout: 'pointer' })).toEqual({
      ...recipe,
      modelDimension: 128,
      headCount: 4,
      decoderLayers: 2,
      mlpRatio: 4,
      maxSequenceLength: 512,
    });
    // A stem pool without channels was a no-op, and still is.
    expect(applyModelConfigOverrides(tiny, { stemPool: 3 }).vision.stem).toBeNull();
    expect(() => applyModelConfigOverrides(tiny, { stemPooling: 'median' as 'max' })).toThrow("ModelConfig.stemPooling must be 'mean' or 'max'; got median.");
  });
});

describe('a model from a flat config and from its grouped twin', () => {
  beforeAll(initBackend);

  const twins: [string, ModelPresetName, Record<string, unknown>, ModelConfigOverrides][] = [
    ['the small preset, Sokoban-sized', 'small', { imageSize: 48, patchSize: 8, gridMerge: 1 }, { imageSize: 48, patchSize: 8, vision: { grid: { cellPatches: 1 } } }],
    [
      'every switch on (stem pooled by max, pointer, max readout)',
      'tiny',
      { imageSize: 32, patchSize: 8, stemChannels: 4, stemPool: 2, stemPooling: 'max', gridPointer: true, imageReadout: 'max' },
      { imageSize: 32, patchSize: 8, vision: { stem: { channels: 4, pool: 2, pooling: 'max' }, pointer: true, readout: 'max' } },
    ],
    ['grid layers and a spatial merge', 'tiny', { imageSize: 32, patchSize: 8, gridLayers: 2, gridMerge: 2, mergeSize: 2 }, { imageSize: 32, patchSize: 8, vision: { grid: { layers: 2, cellPatches: 2 }, spatialMerge: 2 } }],
  ];

  it.each(twins)('%s: the same config, parameters and logits for the same seed', (_, preset, flat, grouped) => {
    const fromFlat = VisionLanguageModel.create({ preset, seed: 11, config: flat });
    const fromGrouped = VisionLanguageModel.create({ preset, seed: 11, config: grouped });
    expect(fromFlat.config).toEqual(fromGrouped.config);
    expect(fromFlat.weightNames).toEqual(fromGrouped.weightNames);
    expect(weightDigests(fromFlat)).toEqual(weightDigests(fromGrouped));
    const size = fromFlat.config.imageSize;
    const image = { width: size, height: size, data: Uint8Array.from({ length: size * size * 3 }, (_, index) => (index * 37) % 251) };
    const tokens = [...fromFlat.tokenizer.encode('Where? '), ...Array.from({ length: imageTokenCount(fromFlat.config) }, () => fromFlat.tokenizer.imagePadId), ...fromFlat.tokenizer.encode('[1,2]')];
    const logits = (model: VisionLanguageModel): number[][] => {
      const inputs = model.prepare([{ tokens, images: [image] }]);
      const output = model.forward(inputs);
      const values = output.logits.arraySync();
      tf.dispose([output.logits, output.values]);
      inputs.dispose();
      return values;
    };
    expect(logits(fromFlat)).toEqual(logits(fromGrouped));
    fromFlat.dispose();
    fromGrouped.dispose();
  });
});
