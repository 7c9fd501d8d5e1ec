/** The shape of a model: everything a checkpoint must agree on to be loaded. */
export interface ModelConfig {
  /** Tokens the tokenizer knows (the embedding and LM-head rows). */
  vocabularySize: number;
  /** Images are resized to imageSize × imageSize RGB before encoding. */
  imageSize: number;
  /** Square patch side in pixels; the encoder sees imageSize / patchSize patches per side. */
  patchSize: number;
  /**
   * Qwen2-VL's spatial merge: each mergeSize × mergeSize block of encoded patches becomes one
   * image token for the decoder (concatenated, then an MLP). 1 keeps one token per patch.
   */
  mergeSize: number;
  /**
   * Local layers over a coarse grid of the image (Value-Iteration-Network-like, see
   * grid-propagation.ts); 0 turns them off. Each layer updates a cell from its four neighbours.
   */
  gridLayers: number;
  /** Patches per grid-cell side for those layers (2: a cell is 2 × 2 patches). */
  gridMerge: number;
  /**
   * Features a per-pixel layer (a 1 × 1 convolution with ReLU) computes before the patch projection
   * reads a patch; absent or 0: the projection reads the raw pixels. A linear map of raw pixels can
   * only sum colours over the patch, so a small red dot and an orange blob at its edge look alike;
   * a per-pixel feature tells them apart wherever the dot falls.
   */
  stemChannels?: number;
  /** The stem's features are pooled over stemPool × stemPool pixel blocks (a divisor of patchSize; default 1). */
  stemPool?: number;
  /**
   * How a block's features are pooled: `mean` (default), or `max` (a smooth maximum,
   * (1/β)·log mean exp(β·f) with β = 30): a feature that a few pixels light up (a small dot) is as
   * strong in its block as one a whole shape lights, where a mean dilutes it by the block's area.
   */
  stemPooling?: 'mean' | 'max';
  /**
   * Digit tokens can point at the latest image (grid-pointer.ts): the digits 0…G−1 (G image tokens
   * per side, at most 10) get the column and row marginals of a pointer attention over that image's
   * tokens, so a call's `[c,r]` names the cell the model looks at. Absent or false: plain digits.
   */
  gridPointer?: boolean;
  /**
   * With the grid pointer: a summary of the latest image goes through a small MLP and is added to
   * the state the LM head reads (image-readout.ts), so an answer reads what a crop shows.
   * 'pointer': the image's tokens weighted by where the pointer looks from the position; 'max': a
   * smooth maximum of projected tokens per feature. Absent: no readout.
   */
  imageReadout?: 'pointer' | 'max';
  /** Width of every hidden state (encoder and decoder). */
  modelDimension: number;
  headCount: number;
  /** Bidirectional transformer layers over the image tokens. */
  encoderLayers: number;
  /** Causal transformer layers over [image tokens, text tokens]. */
  decoderLayers: number;
  /** Hidden width of each MLP as a multiple of modelDimension. */
  mlpRatio: number;
  /** Positions the decoder has embeddings for (prompt + answer). */
  maxSequenceLength: number;
  layerNormEpsilon: number;
}

/** A named model size in MODEL_PRESETS: 'tiny' for tests, 'small' for the default run. */
export type ModelPresetName = 'tiny' | 'small';

const base = { imageSize: 64, patchSize: 16, mergeSize: 1, gridLayers: 0, gridMerge: 1, maxSequenceLength: 512, layerNormEpsilon: 1e-5 };

/**
 * `tiny` is for tests (seconds to train). `small` is the default run's policy: 8 px patches, four
 * per 16 px FrozenLake cell and each inside one cell, so tokens never straddle cells and their 2-D
 * positions say row and column. One 16 px patch per cell is 1.5× cheaper but did not learn where a
 * small object (the player's disc) is within 400 steps, where 8 px patches did (docs/models.md).
 * Its eight grid layers over 2×2-patch cells let a cell learn whether a safe path leads from it.
 */
export const MODEL_PRESETS: Readonly<Record<ModelPresetName, Omit<ModelConfig, 'vocabularySize'>>> = {
  tiny: { ...base, modelDimension: 32, headCount: 2, encoderLayers: 1, decoderLayers: 1, mlpRatio: 2, maxSequenceLength: 256 },
  small: { ...base, patchSize: 8, gridLayers: 8, gridMerge: 2, modelDimension: 128, headCount: 4, encoderLayers: 1, decoderLayers: 2, mlpRatio: 4 },
};

/** Patches along each side of the image (imageSize / patchSize). */
export function patchGrid(config: ModelConfig): number {
  return config.imageSize / config.patchSize;
}

/** Patches the encoder sees per image. */
export function patchCount(config: ModelConfig): number {
  return patchGrid(config) ** 2;
}

/** Image tokens per image in the decoder's sequence (after the spatial merge). */
export function imageTokenCount(config: ModelConfig): number {
  return (patchGrid(config) / (config.mergeSize ?? 1)) ** 2;
}

/** Values per patch row of the inputs: the patch's pixels, 3 channels each. */
export function patchDimension(config: ModelConfig): number {
  return config.patchSize * config.patchSize * 3;
}

/** Values per patch the projection reads: the raw pixels, or the pooled stem features. */
export function patchFeatureDimension(config: ModelConfig): number {
  const channels = config.stemChannels ?? 0;
  if (channels === 0) return patchDimension(config);
  return (config.patchSize / (config.stemPool ?? 1)) ** 2 * channels;
}

/** Throws on a config that cannot build a model; returns it otherwise. */
export function validateModelConfig(config: ModelConfig): ModelConfig {
  const positive = [
    'vocabularySize',
    'imageSize',
    'patchSize',
    'mergeSize',
    'modelDimension',
    'headCount',
    'decoderLayers',
    'mlpRatio',
    'maxSequenceLength',
  ] as const;
  for (const key of positive) {
    if (!Number.isInteger(config[key]) || config[key] <= 0) {
      throw new RangeError(`ModelConfig.${key} must be a positive integer; got ${String(config[key])}.`);
    }
  }
  if (!Number.isInteger(config.encoderLayers) || config.encoderLayers < 0) {
    throw new RangeError(`ModelConfig.encoderLayers must be a non-negative integer; got ${config.encoderLayers}.`);
  }
  const stemChannels = config.stemChannels ?? 0;
  const stemPool = config.stemPool ?? 1;
  if (!Number.isInteger(stemChannels) || stemChannels < 0) {
    throw new RangeError(`ModelConfig.stemChannels must be a non-negative integer; got ${String(config.stemChannels)}.`);
  }
  if (!Number.isInteger(stemPool) || stemPool <= 0 || config.patchSize % stemPool !== 0) {
    throw new RangeError(`ModelConfig.stemPool must be a positive divisor of patchSize (${config.patchSize}); got ${String(config.stemPool)}.`);
  }
  if (config.stemPooling !== undefined && config.stemPooling !== 'mean' && config.stemPooling !== 'max') {
    throw new RangeError(`ModelConfig.stemPooling must be 'mean' or 'max'; got ${String(config.stemPooling)}.`);
  }
  if (config.gridPointer !== undefined && typeof config.gridPointer !== 'boolean') {
    throw new RangeError(`ModelConfig.gridPointer must be true or false; got ${String(config.gridPointer)}.`);
  }
  if (config.imageReadout !== undefined && config.imageReadout !== 'pointer' && config.imageReadout !== 'max') {
    throw new RangeError(`ModelConfig.imageReadout must be 'pointer' or 'max'; got ${String(config.imageReadout)}.`);
  }
  if (config.imageReadout && !config.gridPointer) {
    throw new RangeError('ModelConfig.imageReadout reads the latest image through the grid pointer\'s masks: it needs gridPointer: true.');
  }
  if (config.gridPointer && patchGrid(config) / config.mergeSize > 10) {
    throw new RangeError(`ModelConfig.gridPointer names cells with one digit each: at most 10 image tokens per side; got ${patchGrid(config) / config.mergeSize}.`);
  }
  if (config.imageSize % config.patchSize !== 0) {
    throw new RangeError(`ModelConfig.imageSize (${config.imageSize}) must be a multiple of patchSize (${config.patchSize}).`);
  }
  if (patchGrid(config) % config.mergeSize !== 0) {
    throw new RangeError(`ModelConfig: patches per side (${patchGrid(config)}) must be a multiple of mergeSize (${config.mergeSize}).`);
  }
  if (!Number.isInteger(config.gridLayers) || config.gridLayers < 0) {
    throw new RangeError(`ModelConfig.gridLayers must be a non-negative integer; got ${config.gridLayers}.`);
  }
  if (config.gridLayers > 0 && (!Number.isInteger(config.gridMerge) || config.gridMerge <= 0 || patchGrid(config) % config.gridMerge !== 0)) {
    throw new RangeError(`ModelConfig: patches per side (${patchGrid(config)}) must be a multiple of gridMerge (${config.gridMerge}).`);
  }
  if (config.modelDimension % config.headCount !== 0) {
    throw new RangeError(
      `ModelConfig.modelDimension (${config.modelDimension}) must be a multiple of headCount (${config.headCount}).`,
    );
  }
  return config;
}
