import { describe, expect, it } from 'vitest';
import { MODEL_PRESETS, validateModelConfig, type ModelConfig } from './model-config';

const small: ModelConfig = { ...MODEL_PRESETS.small, vocabularySize: 128 };

describe('validateModelConfig', () => {
  it('accepts the presets', () => {
    expect(validateModelConfig(small)).toBe(small);
    expect(validateModelConfig({ ...MODEL_PRESETS.tiny, vocabularySize: 128 }).gridLayers).toBe(0);
  });

  it('names the field and the value a config cannot build a model with', () => {
    expect(() => validateModelConfig({ ...small, gridMerge: 3 })).toThrow(
      new RangeError('ModelConfig: patches per side (8) must be a multiple of gridMerge (3).'),
    );
    expect(() => validateModelConfig({ ...small, gridLayers: -1 })).toThrow(
      new RangeError('ModelConfig.gridLayers must be a non-negative integer; got -1.'),
    );
    expect(() => validateModelConfig({ ...small, stemChannels: 2.5 })).toThrow(
      new RangeError('ModelConfig.stemChannels must be a non-negative integer; got 2.5.'),
    );
    expect(() => validateModelConfig({ ...small, stemChannels: 8, stemPool: 3 })).toThrow(
      new RangeError('ModelConfig.stemPool must be a positive divisor of patchSize (8); got 3.'),
    );
    expect(() => validateModelConfig({ ...small, stemChannels: 8, stemPooling: 'median' as 'max' })).toThrow(
      new RangeError("ModelConfig.stemPooling must be 'mean' or 'max'; got median."),
    );
    expect(() => validateModelConfig({ ...small, patchSize: 7 })).toThrow(
      new RangeError('ModelConfig.imageSize (64) must be a multiple of patchSize (7).'),
    );
  });

  it('lets gridMerge be anything when there are no grid layers', () => {
    expect(validateModelConfig({ ...small, gridLayers: 0, gridMerge: 3 }).gridMerge).toBe(3);
  });
});
