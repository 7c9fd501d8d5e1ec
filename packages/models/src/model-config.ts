import { InvalidArgumentError } from '@saccade/spec';
import { z } from 'zod';

/** How the pixel stem pools a block's features: a mean, or a smooth maximum. */
export type StemPooling = 'mean' | 'max';

/**
 * What the image readout summarises: the tokens the pointer looks at, a smooth maximum over all
 * tokens, or a smooth maximum of a convolution over the stem's blocks at every position.
 */
export type ImageReadout = 'pointer' | 'max' | 'conv';

/** Which image the grid pointer names cells of: the latest complete one, or the sequence's first. */
export type PointerImage = 'latest' | 'first';

/**
 * A per-pixel layer (a 1 × 1 convolution with ReLU) the patch projection reads instead of the raw
 * pixels. A linear map of raw pixels can only sum colours over the patch, so a small red dot and an
 * orange blob at its edge look alike; a per-pixel feature tells them apart wherever the dot falls.
 */
export interface PixelStemConfig {
  /** Features each pixel gets (a positive integer). */
  channels: number;
  /** The features are pooled over pool × pool pixel blocks (a divisor of patchSize; 1: per pixel). */
  pool: number;
  /**
   * How a block's features are pooled: `mean`, or `max` (a smooth maximum,
   * (1/β)·log mean exp(β·f) with β = 30): a feature that a few pixels light up (a small dot) is as
   * strong in its block as one a whole shape lights, where a mean dilutes it by the block's area.
   */
  pooling: StemPooling;
  /**
   * Side of the stem's convolution in pixels (odd; absent or 1: per pixel). A k × k convolution
   * (zero padding at the image's edges, across patch borders) sees how a small shape covers its
   * neighbouring pixels, where a per-pixel feature sees only how red each pixel is: at 128 px a
   * 4-px star and a 4-px circle light the same pixels red, in different amounts around them.
   */
  kernel?: number;
}

/**
 * Local layers over a coarse grid of the encoded patches (Value-Iteration-Network-like, see
 * grid-propagation.ts): each layer updates a cell from its four neighbours.
 */
export interface GridLayersConfig {
  /** How many layers (a positive integer). */
  layers: number;
  /** Patches along a cell's side (2: a cell is 2 × 2 patches). */
  cellPatches: number;
}

/**
 * The switches of the image path, in the order an image meets them: the pixel stem, the grid
 * layers over the encoded patches, the spatial merge into decoder tokens, and on the decoder's side
 * the grid pointer and the image readout. `null` turns a module off.
 */
export interface VisionConfig {
  /** A per-pixel stem before the patch projection; null: the projection reads the raw pixels. */
  stem: PixelStemConfig | null;
  /** Grid layers after the encoder; null: none. */
  grid: GridLayersConfig | null;
  /**
   * Qwen2-VL's spatial merge: each spatialMerge × spatialMerge block of encoded patches becomes one
   * image token for the decoder (concatenated, then an MLP). 1 keeps one token per patch.
   */
  spatialMerge: number;
  /**
   * Digit tokens can point at the latest image (grid-pointer.ts): the digits 0…G−1 (G image tokens
   * per side, at most 10) get the column and row marginals of a pointer attention over that image's
   * tokens, so a call's `[c,r]` names the cell the model looks at. false: plain digits.
   */
  pointer: boolean;
  /**
   * Which image the pointer's digits name cells of: 'latest' (the latest complete image) or 'first'
   * (the sequence's first image, once it is complete). A point-crop tool's coordinates are in the
   * original image's frame, the episode's first image: after a first crop the latest image is the
   * crop, and a second call pointing into it would name cells of the wrong frame. With a history
   * window that drops the first image, the oldest image kept in the prompt is the one pointed at.
   * The readout reads the latest image either way, so 'first' needs a readout other than 'pointer'.
   */
  pointerImage: PointerImage;
  /**
   * Inhibition of return, as a saccade model has it: the pointer leaves out the cells that earlier
   * calls in the sequence named (a complete `[c,r]`), so a search looks somewhere new each time
   * while any cell is left. Needs pointerImage 'first' (cells named in one frame, the original
   * image's). Absent: false.
   */
  inhibitionOfReturn?: boolean;
  /**
   * With inhibitionOfReturn: the cells within this many cells of a named one (in rows and columns:
   * the square of side 2·radius + 1 around it) are left out too, for a crop that shows more than
   * its cell (a 728-px crop on a 256-px cell shows its neighbours), so the next look does not land
   * on what the last one showed. Absent: 0, the named cell alone.
   */
  inhibitionRadius?: number;
  /**
   * With the pointer: a summary of the latest image goes through a small MLP and is added to the
   * state the LM head reads (image-readout.ts), so an answer reads what a crop shows. 'pointer':
   * the image's tokens weighted by where the pointer looks from the position; 'max': a smooth
   * maximum of projected tokens per feature; 'conv': a convolution over the pixel stem's pooled
   * blocks, smooth-maximised over every block of the image, so a shape gives the same summary
   * wherever it lies (needs the stem and no spatial merge). null: no readout.
   */
  readout: ImageReadout | null;
  /**
   * Which images the 'max' or 'conv' readout summarises: 'latest' (the latest complete image) or
   * 'all' (every complete image so far, one smooth maximum over all their tokens): an answer after
   * several crops then reads the one that showed the target, not only the last. Absent: 'latest'.
   */
  readoutImages?: ReadoutImages;
}

/** Which images the readout summarises (VisionConfig.readoutImages). */
export type ReadoutImages = 'latest' | 'all';

/**
 * The shape of a model: everything a checkpoint must agree on to be loaded. The image's size and
 * patch size and the transformer's sizes are at the top (they fix the tokens every consumer counts);
 * the switches of the image path are grouped in `vision`.
 */
export interface ModelConfig {
  /** Tokens the tokenizer knows (the embedding and LM-head rows). */
  vocabularySize: number;
  /** Images are resized to imageSize × imageSize RGB before encoding. */
  imageSize: number;
  /** Square patch side in pixels; the encoder sees imageSize / patchSize patches per side. */
  patchSize: number;
  /** Width of every hidden state (encoder and decoder). */
  modelDimension: number;
  /** Attention heads of every layer (a divisor of modelDimension). */
  headCount: number;
  /** Bidirectional transformer layers over the image tokens. */
  encoderLayers: number;
  /** Causal transformer layers over [image tokens, text tokens]. */
  decoderLayers: number;
  /** Hidden width of each MLP as a multiple of modelDimension. */
  mlpRatio: number;
  /** Positions the decoder has embeddings for (prompt + answer). */
  maxSequenceLength: number;
  /** ε of every layer norm. */
  layerNormEpsilon: number;
  /** The image path's switches. */
  vision: VisionConfig;
}

/**
 * Changes to a preset's config (CreateModelOptions.config): any top-level field, and any switch of
 * `vision`. A stem or grid given as an object is merged into the preset's (or into the defaults
 * pool 1, pooling 'mean', cellPatches 1 when the preset has none); null turns it off.
 */
export interface ModelConfigOverrides extends Partial<Omit<ModelConfig, 'vocabularySize' | 'vision'>> {
  /** The vision switches to change. */
  vision?: {
    stem?: Partial<PixelStemConfig> | null;
    grid?: Partial<GridLayersConfig> | null;
    spatialMerge?: number;
    pointer?: boolean;
    pointerImage?: PointerImage;
    inhibitionOfReturn?: boolean;
    inhibitionRadius?: number;
    readout?: ImageReadout | null;
    readoutImages?: ReadoutImages;
  };
}

/**
 * The flat form configs had before the vision switches were grouped: what checkpoints written
 * before hold in config.json. readModelConfig reads it; nothing writes it. It has no pointerImage:
 * the pointer pointed at the latest image then.
 */
export interface FlatModelConfig extends Omit<ModelConfig, 'vision'> {
  mergeSize: number;
  gridLayers: number;
  gridMerge: number;
  stemChannels?: number;
  stemPool?: number;
  stemPooling?: StemPooling;
  gridPointer?: boolean;
  imageReadout?: ImageReadout;
}

/** A grouped config as stored: one written before pointerImage existed has none. */
export type StoredModelConfig = Omit<ModelConfig, 'vision'> & { vision: Omit<VisionConfig, 'pointerImage'> & { pointerImage?: PointerImage } };

/** A named model size in MODEL_PRESETS: 'tiny' for tests, 'small' for the default run. */
export type ModelPresetName = 'tiny' | 'small';

/** Every vision switch off: raw pixels, no grid layers, one token per patch, plain digits. */
const PLAIN_VISION: VisionConfig = { stem: null, grid: null, spatialMerge: 1, pointer: false, pointerImage: 'latest', readout: null };

/**
 * `tiny` is for tests (seconds to train). `small` is the default run's policy: 8 px patches, four
 * per 16 px FrozenLake cell and each inside one cell, so tokens never straddle cells and their 2-D
 * positions say row and column. One 16 px patch per cell is 1.5× cheaper but did not learn where a
 * small object (the player's disc) is within 400 steps, where 8 px patches did (docs/models.md).
 * Its eight grid layers over 2×2-patch cells let a cell learn whether a safe path leads from it.
 */
export const MODEL_PRESETS: Readonly<Record<ModelPresetName, Omit<ModelConfig, 'vocabularySize'>>> = {
  tiny: {
    imageSize: 64,
    patchSize: 16,
    modelDimension: 32,
    headCount: 2,
    encoderLayers: 1,
    decoderLayers: 1,
    mlpRatio: 2,
    maxSequenceLength: 256,
    layerNormEpsilon: 1e-5,
    vision: PLAIN_VISION,
  },
  small: {
    imageSize: 64,
    patchSize: 8,
    modelDimension: 128,
    headCount: 4,
    encoderLayers: 1,
    decoderLayers: 2,
    mlpRatio: 4,
    maxSequenceLength: 512,
    layerNormEpsilon: 1e-5,
    vision: { ...PLAIN_VISION, grid: { layers: 8, cellPatches: 2 } },
  },
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
  return (patchGrid(config) / config.vision.spatialMerge) ** 2;
}

/** Values per patch row of the inputs: the patch's pixels, 3 channels each. */
export function patchDimension(config: ModelConfig): number {
  return config.patchSize * config.patchSize * 3;
}

/** Values per patch the projection reads: the raw pixels, or the pooled stem features. */
export function patchFeatureDimension(config: ModelConfig): number {
  const { stem } = config.vision;
  if (!stem) return patchDimension(config);
  return (config.patchSize / stem.pool) ** 2 * stem.channels;
}

// Schemas of both forms. Each check's error is what the field expects, so a bad value is reported
// as "ModelConfig.<field> must be <expected>; got <value>." whichever check it failed.
const POSITIVE = 'a positive integer';
const NON_NEGATIVE = 'a non-negative integer';
const positiveInteger = z.number({ error: POSITIVE }).int({ error: POSITIVE }).positive({ error: POSITIVE });
const nonNegativeInteger = z.number({ error: NON_NEGATIVE }).int({ error: NON_NEGATIVE }).nonnegative({ error: NON_NEGATIVE });
const positiveNumber = z.number({ error: 'a positive number' }).positive({ error: 'a positive number' });
const stemPooling = z.enum(['mean', 'max'], { error: "'mean' or 'max'" });
const imageReadout = z.enum(['pointer', 'max', 'conv'], { error: "'pointer', 'max' or 'conv'" });
const pointerImage = z.enum(['latest', 'first'], { error: "'latest' or 'first'" });
const readoutImages = z.enum(['latest', 'all'], { error: "'latest' or 'all'" });
const trueOrFalse = z.boolean({ error: 'true or false' });

const sizes = {
  vocabularySize: positiveInteger,
  imageSize: positiveInteger,
  patchSize: positiveInteger,
  modelDimension: positiveInteger,
  headCount: positiveInteger,
  encoderLayers: nonNegativeInteger,
  decoderLayers: positiveInteger,
  mlpRatio: positiveInteger,
  maxSequenceLength: positiveInteger,
  layerNormEpsilon: positiveNumber,
};

const stemSchema = z.strictObject({ channels: positiveInteger, pool: positiveInteger, pooling: stemPooling, kernel: positiveInteger.optional() });
const gridSchema = z.strictObject({ layers: positiveInteger, cellPatches: positiveInteger });
const visionSchema = z.strictObject({
  stem: stemSchema.nullable(),
  grid: gridSchema.nullable(),
  spatialMerge: positiveInteger,
  pointer: trueOrFalse,
  // Configs (and checkpoints) written before the field pointed at the latest image.
  pointerImage: pointerImage.optional(),
  inhibitionOfReturn: trueOrFalse.optional(),
  inhibitionRadius: nonNegativeInteger.optional(),
  readout: imageReadout.nullable(),
  readoutImages: readoutImages.optional(),
});
const groupedSchema = z.strictObject({ ...sizes, vision: visionSchema });
const flatSchema = z.strictObject({
  ...sizes,
  mergeSize: positiveInteger,
  gridLayers: nonNegativeInteger,
  gridMerge: positiveInteger,
  stemChannels: nonNegativeInteger.optional(),
  stemPool: positiveInteger.optional(),
  stemPooling: stemPooling.optional(),
  gridPointer: trueOrFalse.optional(),
  imageReadout: imageReadout.optional(),
});
const overridesSchema = z.strictObject({
  ...Object.fromEntries(Object.entries(sizes).filter(([key]) => key !== 'vocabularySize').map(([key, schema]) => [key, schema.optional()])),
  vision: z
    .strictObject({
      stem: stemSchema.partial().nullable().optional(),
      grid: gridSchema.partial().nullable().optional(),
      spatialMerge: positiveInteger.optional(),
      pointer: trueOrFalse.optional(),
      pointerImage: pointerImage.optional(),
      inhibitionOfReturn: trueOrFalse.optional(),
      inhibitionRadius: nonNegativeInteger.optional(),
      readout: imageReadout.nullable().optional(),
      readoutImages: readoutImages.optional(),
    })
    .optional(),
});
const flatOverridesSchema = flatSchema.omit({ vocabularySize: true }).partial();

/** The fields only the flat form has, each with where the grouped form keeps it. */
const FLAT_FIELDS: Readonly<Record<Exclude<keyof FlatModelConfig, keyof ModelConfig>, string>> = {
  mergeSize: 'vision.spatialMerge',
  gridLayers: 'vision.grid.layers',
  gridMerge: 'vision.grid.cellPatches',
  stemChannels: 'vision.stem.channels',
  stemPool: 'vision.stem.pool',
  stemPooling: 'vision.stem.pooling',
  gridPointer: 'vision.pointer',
  imageReadout: 'vision.readout',
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a config (or overrides) object is in the flat form: it has a field only that form has. */
function isFlat(value: Record<string, unknown>): boolean {
  const flat = Object.keys(FLAT_FIELDS).filter((key) => key in value);
  if (flat.length > 0 && 'vision' in value) {
    const [first] = flat as (keyof typeof FLAT_FIELDS)[];
    throw new InvalidArgumentError({
      argument: `ModelConfig.${first!}`,
      expected: `one form: with vision, write ${first!} as ${FLAT_FIELDS[first!]}`,
      value: value[first!],
      message: `ModelConfig mixes the grouped form (vision) with the flat form's ${flat.join(', ')}: write ${first!} as ${FLAT_FIELDS[first!]}.`,
    });
  }
  return flat.length > 0;
}

/** A schema's parse, or an InvalidArgumentError naming the first field it refused. */
function parseWith<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const at = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]!] : issue.path;
  const field = ['ModelConfig', ...at.map(String)].join('.');
  if (issue.code === 'unrecognized_keys') {
    const parent = issue.path.reduce<unknown>((node, key) => (isRecord(node) ? node[key as string] : undefined), value);
    const received = isRecord(parent) ? parent[issue.keys[0]!] : undefined;
    throw new InvalidArgumentError({ argument: field, expected: 'no such field', value: received, message: `ModelConfig has no field ${at.map(String).join('.')}.` });
  }
  const received = at.reduce<unknown>((node, key) => (isRecord(node) ? node[key as string] : undefined), value);
  throw new InvalidArgumentError({ argument: field, expected: issue.message, value: received, message: `${field} must be ${issue.message}; got ${describe(received)}.` });
}

function describe(value: unknown): string {
  return value === undefined ? 'nothing' : typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * The grouped config of a flat one: mergeSize → vision.spatialMerge; gridLayers (0: none) and
 * gridMerge → vision.grid; stemChannels (absent or 0: none), stemPool (default 1) and stemPooling
 * (default 'mean') → vision.stem; gridPointer (default false) → vision.pointer; imageReadout → vision.readout.
 * The flat form has no pointerImage: its pointer pointed at the latest image.
 */
function groupFlat(flat: z.infer<typeof flatSchema>): ModelConfig {
  const { mergeSize, gridLayers, gridMerge, stemChannels, stemPool, stemPooling, gridPointer, imageReadout, ...sizes } = flat;
  const channels = stemChannels ?? 0;
  return orderModelConfig({
    ...sizes,
    vision: {
      stem: channels > 0 ? { channels, pool: stemPool ?? 1, pooling: stemPooling ?? 'mean' } : null,
      grid: gridLayers > 0 ? { layers: gridLayers, cellPatches: gridMerge } : null,
      spatialMerge: mergeSize,
      pointer: gridPointer ?? false,
      pointerImage: 'latest',
      readout: imageReadout ?? null,
    },
  });
}

/**
 * A config with its fields in one order (sizes, then the vision switches in the image's order), so
 * that configs reached by different routes read and serialise alike. A vision without pointerImage
 * (a config written before it existed) gets 'latest', what the pointer did then.
 */
export function orderModelConfig(config: ModelConfig | StoredModelConfig): ModelConfig {
  const { vocabularySize, imageSize, patchSize, modelDimension, headCount, encoderLayers, decoderLayers, mlpRatio, maxSequenceLength, layerNormEpsilon, vision } = config;
  const { stem, grid, spatialMerge, pointer, pointerImage, inhibitionOfReturn, inhibitionRadius, readout, readoutImages } = vision;
  return {
    vocabularySize,
    imageSize,
    patchSize,
    modelDimension,
    headCount,
    encoderLayers,
    decoderLayers,
    mlpRatio,
    maxSequenceLength,
    layerNormEpsilon,
    vision: {
      // kernel is written only when it is a convolution: every config before it reads and serialises as it did.
      stem: stem && { channels: stem.channels, pool: stem.pool, pooling: stem.pooling, ...(stem.kernel !== undefined && stem.kernel > 1 ? { kernel: stem.kernel } : {}) },
      grid: grid && { layers: grid.layers, cellPatches: grid.cellPatches },
      spatialMerge,
      pointer,
      pointerImage: pointerImage ?? 'latest',
      // Written only when on: every config before it reads and serialises as it did.
      ...(inhibitionOfReturn === true ? { inhibitionOfReturn } : {}),
      ...(inhibitionRadius !== undefined && inhibitionRadius > 0 ? { inhibitionRadius } : {}),
      readout,
      ...(readoutImages === 'all' ? { readoutImages } : {}),
    },
  };
}

/** The flat form of a config (the defaults an absent flat field had), to apply flat overrides to. */
function flatten(config: Omit<ModelConfig, 'vocabularySize'>): Omit<FlatModelConfig, 'vocabularySize'> {
  const { vision, ...sizes } = config;
  return {
    ...sizes,
    mergeSize: vision.spatialMerge,
    gridLayers: vision.grid?.layers ?? 0,
    gridMerge: vision.grid?.cellPatches ?? 1,
    ...(vision.stem ? { stemChannels: vision.stem.channels, stemPool: vision.stem.pool, stemPooling: vision.stem.pooling } : {}),
    gridPointer: vision.pointer,
    ...(vision.readout ? { imageReadout: vision.readout } : {}),
  };
}

/**
 * A stored model config (a checkpoint's config.json) in either form, grouped, or the flat form of
 * checkpoints written before the vision switches were grouped, as the grouped config. Throws
 * InvalidArgumentError naming the field on a missing, unknown or mistyped value, and on a config
 * that cannot build a model (validateModelConfig).
 */
export function readModelConfig(value: unknown): ModelConfig {
  if (!isRecord(value)) {
    throw new InvalidArgumentError({ argument: 'ModelConfig', expected: 'an object', value, message: `ModelConfig must be an object; got ${describe(value)}.` });
  }
  return validateModelConfig(isFlat(value) ? groupFlat(parseWith(flatSchema, value)) : orderModelConfig(parseWith(groupedSchema, value)));
}

/**
 * A config with overrides applied (CreateModelOptions.config), in either form: grouped overrides
 * merge field by field (a stem or grid object into the base's, null turns it off); flat overrides
 * (the form before grouping) are applied to the base's flat form, which is then read as a whole, so
 * they mean what they meant then. The result is not validated (resolveModelConfig does).
 */
export function applyModelConfigOverrides(base: ModelConfig, overrides: ModelConfigOverrides | Partial<Omit<FlatModelConfig, 'vocabularySize'>>): ModelConfig {
  if (!isRecord(overrides)) {
    throw new InvalidArgumentError({ argument: 'ModelConfig', expected: 'an object of overrides', value: overrides, message: `ModelConfig overrides must be an object; got ${describe(overrides)}.` });
  }
  const { vocabularySize, ...rest } = base;
  if (isFlat(overrides)) return groupFlat(parseWith(flatSchema, { ...flatten(rest), ...parseWith(flatOverridesSchema, overrides), vocabularySize }));
  const { vision: visionOverrides, ...sizes } = parseWith(overridesSchema, overrides) as ModelConfigOverrides;
  const vision = { ...base.vision };
  if (visionOverrides) {
    const { stem, grid, ...switches } = visionOverrides;
    Object.assign(vision, switches);
    if (stem !== undefined) vision.stem = stem === null ? null : ({ pool: 1, pooling: 'mean', ...base.vision.stem, ...stem } as PixelStemConfig);
    if (grid !== undefined) vision.grid = grid === null ? null : ({ cellPatches: 1, ...base.vision.grid, ...grid } as GridLayersConfig);
  }
  return orderModelConfig({ ...base, ...sizes, vision });
}

/**
 * Throws InvalidArgumentError, naming the field, on a config that cannot build a model; returns
 * it otherwise.
 */
export function validateModelConfig(config: ModelConfig): ModelConfig {
  const fail = (field: string, value: unknown, message: string): never => {
    throw new InvalidArgumentError({ argument: `ModelConfig.${field}`, expected: message, value, message });
  };
  const positive = ['vocabularySize', 'imageSize', 'patchSize', 'modelDimension', 'headCount', 'decoderLayers', 'mlpRatio', 'maxSequenceLength'] as const;
  for (const key of positive) {
    if (!Number.isInteger(config[key]) || config[key] <= 0) fail(key, config[key], `ModelConfig.${key} must be a positive integer; got ${String(config[key])}.`);
  }
  if (!Number.isInteger(config.encoderLayers) || config.encoderLayers < 0) {
    fail('encoderLayers', config.encoderLayers, `ModelConfig.encoderLayers must be a non-negative integer; got ${config.encoderLayers}.`);
  }
  if (!isRecord(config.vision)) fail('vision', config.vision, `ModelConfig.vision must be an object of the vision switches; got ${describe(config.vision)}.`);
  const { stem, grid, spatialMerge, pointer, pointerImage, readout } = config.vision;
  if (!Number.isInteger(spatialMerge) || spatialMerge <= 0) fail('vision.spatialMerge', spatialMerge, `ModelConfig.vision.spatialMerge must be a positive integer; got ${String(spatialMerge)}.`);
  if (stem) {
    if (!Number.isInteger(stem.channels) || stem.channels <= 0) fail('vision.stem.channels', stem.channels, `ModelConfig.vision.stem.channels must be a positive integer; got ${String(stem.channels)}.`);
    if (!Number.isInteger(stem.pool) || stem.pool <= 0 || config.patchSize % stem.pool !== 0) {
      fail('vision.stem.pool', stem.pool, `ModelConfig.vision.stem.pool must be a positive divisor of patchSize (${config.patchSize}); got ${String(stem.pool)}.`);
    }
    if (stem.pooling !== 'mean' && stem.pooling !== 'max') fail('vision.stem.pooling', stem.pooling, `ModelConfig.vision.stem.pooling must be 'mean' or 'max'; got ${String(stem.pooling)}.`);
    if (stem.kernel !== undefined && (!Number.isInteger(stem.kernel) || stem.kernel <= 0 || stem.kernel % 2 !== 1)) {
      fail('vision.stem.kernel', stem.kernel, `ModelConfig.vision.stem.kernel must be an odd positive integer (1: per pixel); got ${String(stem.kernel)}.`);
    }
  }
  if (typeof pointer !== 'boolean') fail('vision.pointer', pointer, `ModelConfig.vision.pointer must be true or false; got ${String(pointer)}.`);
  if (readout !== null && readout !== 'pointer' && readout !== 'max' && readout !== 'conv') {
    fail('vision.readout', readout, `ModelConfig.vision.readout must be 'pointer', 'max', 'conv' or null; got ${String(readout)}.`);
  }
  if (readout && !pointer) {
    fail('vision.readout', readout, "ModelConfig.vision.readout reads the latest image through the grid pointer's masks: it needs vision.pointer: true.");
  }
  if (pointerImage !== 'latest' && pointerImage !== 'first') {
    fail('vision.pointerImage', pointerImage, `ModelConfig.vision.pointerImage must be 'latest' or 'first'; got ${String(pointerImage)}.`);
  }
  if (pointerImage === 'first' && !pointer) {
    fail('vision.pointerImage', pointerImage, "ModelConfig.vision.pointerImage 'first' says which image the grid pointer names cells of: it needs vision.pointer: true.");
  }
  if (pointerImage === 'first' && readout === 'pointer') {
    fail(
      'vision.pointerImage',
      pointerImage,
      "ModelConfig.vision.pointerImage 'first' needs a readout other than 'pointer': the 'pointer' readout reads the tokens the pointer looks at, which would be the first image, not the latest (a crop); use readout 'max', 'conv' or null.",
    );
  }
  const { inhibitionOfReturn } = config.vision;
  if (inhibitionOfReturn !== undefined && typeof inhibitionOfReturn !== 'boolean') {
    fail('vision.inhibitionOfReturn', inhibitionOfReturn, `ModelConfig.vision.inhibitionOfReturn must be true or false; got ${String(inhibitionOfReturn)}.`);
  }
  if (inhibitionOfReturn === true && (!pointer || pointerImage !== 'first')) {
    fail(
      'vision.inhibitionOfReturn',
      inhibitionOfReturn,
      `ModelConfig.vision.inhibitionOfReturn leaves out the grid pointer's cells that earlier calls named, in one frame: it needs vision.pointer: true and vision.pointerImage 'first'; got pointer ${String(pointer)}, pointerImage '${String(pointerImage)}'.`,
    );
  }
  const { inhibitionRadius } = config.vision;
  if (inhibitionRadius !== undefined && !(Number.isSafeInteger(inhibitionRadius) && inhibitionRadius >= 0)) {
    fail('vision.inhibitionRadius', inhibitionRadius, `ModelConfig.vision.inhibitionRadius must be a non-negative integer (cells); got ${String(inhibitionRadius)}.`);
  }
  if (inhibitionRadius !== undefined && inhibitionRadius > 0 && inhibitionOfReturn !== true) {
    fail('vision.inhibitionRadius', inhibitionRadius, `ModelConfig.vision.inhibitionRadius widens inhibition of return: it needs vision.inhibitionOfReturn: true; got inhibitionOfReturn ${String(inhibitionOfReturn)}.`);
  }
  const { readoutImages } = config.vision;
  if (readoutImages !== undefined && readoutImages !== 'latest' && readoutImages !== 'all') {
    fail('vision.readoutImages', readoutImages, `ModelConfig.vision.readoutImages must be 'latest' or 'all'; got ${String(readoutImages)}.`);
  }
  if (readoutImages === 'all' && readout !== 'max' && readout !== 'conv') {
    fail('vision.readoutImages', readoutImages, `ModelConfig.vision.readoutImages 'all' pools every image's tokens by a smooth maximum: it needs readout 'max' or 'conv'; got ${String(readout)}.`);
  }
  if (readout === 'conv' && (!stem || spatialMerge !== 1)) {
    fail('vision.readout', readout, `ModelConfig.vision.readout 'conv' convolves the pixel stem's blocks of each patch: it needs vision.stem and vision.spatialMerge 1; got stem ${stem ? 'set' : 'null'}, spatialMerge ${String(spatialMerge)}.`);
  }
  if (config.imageSize % config.patchSize !== 0) {
    fail('imageSize', config.imageSize, `ModelConfig.imageSize (${config.imageSize}) must be a multiple of patchSize (${config.patchSize}).`);
  }
  if (patchGrid(config) % spatialMerge !== 0) {
    fail('vision.spatialMerge', spatialMerge, `ModelConfig: patches per side (${patchGrid(config)}) must be a multiple of vision.spatialMerge (${spatialMerge}).`);
  }
  if (pointer && patchGrid(config) / spatialMerge > 10) {
    fail('vision.pointer', pointer, `ModelConfig.vision.pointer names cells with one digit each: at most 10 image tokens per side; got ${patchGrid(config) / spatialMerge}.`);
  }
  if (grid) {
    if (!Number.isInteger(grid.layers) || grid.layers <= 0) fail('vision.grid.layers', grid.layers, `ModelConfig.vision.grid.layers must be a positive integer; got ${String(grid.layers)}.`);
    if (!Number.isInteger(grid.cellPatches) || grid.cellPatches <= 0 || patchGrid(config) % grid.cellPatches !== 0) {
      fail('vision.grid.cellPatches', grid.cellPatches, `ModelConfig: patches per side (${patchGrid(config)}) must be a multiple of vision.grid.cellPatches (${String(grid.cellPatches)}).`);
    }
  }
  if (config.modelDimension % config.headCount !== 0) {
    fail('modelDimension', config.modelDimension, `ModelConfig.modelDimension (${config.modelDimension}) must be a multiple of headCount (${config.headCount}).`);
  }
  return config;
}
