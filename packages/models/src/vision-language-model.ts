import * as tf from '@tensorflow/tfjs-core';
import { smoothMaxStem } from '@saccade/tensor';
import { InvalidArgumentError } from '@saccade/spec';
import { applyModelConfigOverrides, MODEL_PRESETS, orderModelConfig, patchGrid, validateModelConfig, type FlatModelConfig, type ModelConfig, type ModelConfigOverrides, type ModelPresetName } from './model-config';
import { gridPropagation, mergePatchBlocks } from './grid-propagation';
import { convStem } from './conv-stem';
import { generate, type GenerateOptions, type GeneratedSample } from './generate';
import { countParameters, initialParameterValues, parameterSpecs } from './model-parameters';
import { MASKED, prepareInputs, type ModelInputs, type ModelSequence } from './model-inputs';
import { timePhase } from './phase-timer';
import { Tokenizer } from './tokenizer';
import { pointerCacheOf, pointerStepTerms, pointerTerms, type PointerCache, type PointerCallIds, type PointerInputs, type PointerStates } from './grid-pointer';
import { convReadoutValues, poolImages, readoutValueWidth } from './image-readout';
import { gelu, layerNorm, linear, transformerBlock, transformerBlockLastPosition, type WeightLookup } from './transformer-layers';

/**
 * What a new VisionLanguageModel is built from: a preset, config overrides, the seed of its initial
 * weights, and its tokenizer.
 */
export interface CreateModelOptions {
  /** A preset to start from (default 'small'); `config` fields override it. */
  preset?: ModelPresetName;
  /**
   * Changes to the preset: grouped (`{ imageSize: 128, vision: { pointer: true } }`), or in the flat
   * form configs had before the vision switches were grouped (`{ gridPointer: true }`), which is
   * applied as it was then (applyModelConfigOverrides).
   */
  config?: ModelConfigOverrides | Partial<Omit<FlatModelConfig, 'vocabularySize'>>;
  /** Seed of the initial weights (default 0). */
  seed?: number;
  tokenizer?: Tokenizer;
}

/**
 * What a forward pass returns: logits and values for every position, and the key-value and pointer
 * caches generation continues from.
 */
export interface ForwardOutput {
  /** [batch·length, vocabulary]; [batch, vocabulary] with `lastPosition`. */
  logits: tf.Tensor2D;
  /** [batch·length]: the value head on every position's hidden state ([batch] with `lastPosition`). */
  values: tf.Tensor1D;
  /** Per decoder layer, keys and values [batch, heads, length, d/heads] (with `cache: true`). */
  cache?: { keys: tf.Tensor4D; values: tf.Tensor4D }[];
  /** Each row's last image's pointer keys (with `cache: true` and config.vision.pointer). */
  pointer?: PointerCache;
}

/** Where the grid pointer's keys come from: a full sequence's masks, or a generation's cache. */
export type PointerSource = { inputs: PointerInputs; batch: number; length: number; states: PointerStates } | { cache: PointerCache };

/**
 * Per token t (aligned with the input tokens, [batch, length]): the log-probability of token t
 * given tokens < t, the entropy of that next-token distribution, and the value of the state that
 * token t is generated from (verl's alignment). Column 0 has no prediction and holds 0.
 */
export interface LogProbsAndValues {
  logProbs: tf.Tensor2D;
  entropies: tf.Tensor2D;
  values: tf.Tensor2D;
}

/**
 * The distribution tokens were sampled from: the logits divided by `temperature`, the
 * `bannedIds` left out (generate's `bannedTokenIds`). A policy trainer scores sampled tokens under
 * it, so that its log-probs equal the sampler's.
 */
export interface SamplingDistribution {
  /** > 0; a greedy sampler's tokens are scored at 1. */
  temperature: number;
  bannedIds: readonly number[];
}

/** Encoded image tokens; with the grid pointer each token's own patch content; with the 'conv' readout its per-token values. */
interface EncodedImages {
  encoded: tf.Tensor2D;
  local: tf.Tensor2D | undefined;
  readoutValues?: tf.Tensor2D | undefined;
}

let modelCount = 0;

/**
 * β of the stem's smooth maximum: measured on visual search (a 4-px red dot among larger shapes,
 * 128-px view, 8 × 8 cells), 30 found the dot's cell for 86.5 % of held-out images after 100 steps,
 * 10 for 50 %, and 1 (nearly a mean) stayed at chance.
 */
const STEM_MAX_SHARPNESS = 30;

/** Patches the pixel stem works on at once (a training batch of 32 two-image episodes at 8 × 8 patches). */
const STEM_CHUNK_PATCHES = 4096;

/**
 * The full model config for a preset and overrides, its vocabulary size taken from the tokenizer;
 * throws on a config that cannot build a model.
 */
export function resolveModelConfig(options: Pick<CreateModelOptions, 'preset' | 'config'>, tokenizer: Tokenizer): ModelConfig {
  const preset: ModelConfig = { ...MODEL_PRESETS[options.preset ?? 'small'], vocabularySize: tokenizer.vocabularySize };
  return validateModelConfig(options.config === undefined ? orderModelConfig(preset) : applyModelConfigOverrides(preset, options.config));
}

/**
 * The built-in VLM: a patch encoder (one token per patch, 2-D position embeddings, bidirectional
 * layers) whose outputs fill the `<image_pad>` slots of a causal pre-LN decoder, with an LM head
 * and a value head. Weights are tf.Variables named by `parameterSpecs`; the model owns them.
 */
export class VisionLanguageModel {
  readonly config: ModelConfig;
  readonly tokenizer: Tokenizer;
  /** Unique per instance: tfjs variable names are global, and a trainer holds several models. */
  readonly scope: string;
  private readonly variables = new Map<string, tf.Variable>();
  private disposed = false;
  /** Token ids of the digits 0–9, the grid pointer's cell names (config.vision.pointer only). */
  private readonly digitIds: number[] = [];
  /** Token ids of a call's `[c,r]` (config.vision.inhibitionOfReturn only): where the cells named so far are read from. */
  readonly pointerCallIds: PointerCallIds | undefined;

  constructor(config: ModelConfig, tokenizer: Tokenizer, values: Map<string, Float32Array>) {
    this.config = validateModelConfig(config);
    this.tokenizer = tokenizer;
    if (this.config.vision.pointer) {
      const digits = Array.from({ length: 10 }, (_, digit) => tokenizer.encode(String(digit)));
      if (digits.some((ids) => ids.length !== 1)) {
        throw new RangeError('ModelConfig.vision.pointer needs a tokenizer with one token per digit 0–9 (the cells it names); this tokenizer splits them.');
      }
      this.digitIds = digits.map((ids) => ids[0]!);
    }
    this.pointerCallIds = undefined;
    if (this.config.vision.inhibitionOfReturn) {
      const marks = ['[', ',', ']'].map((mark) => tokenizer.encode(mark));
      if (marks.some((ids) => ids.length !== 1)) {
        throw new RangeError("ModelConfig.vision.inhibitionOfReturn reads the cells calls named from their '[c,r]': it needs a tokenizer with one token each for '[', ',' and ']'; this tokenizer splits them.");
      }
      const [open, comma, close] = marks.map((ids) => ids[0]!) as [number, number, number];
      this.pointerCallIds = { open, comma, close, digits: this.digitIds };
    }
    this.scope = `saccade-model-${++modelCount}`;
    for (const spec of parameterSpecs(config)) {
      const value = values.get(spec.name);
      if (!value) throw new Error(`No initial value for weight ${spec.name}.`);
      // tf.variable keeps its own handle on the data: release the initial tensor's.
      const initial = tf.tensor(value, spec.shape, 'float32');
      this.variables.set(spec.name, tf.variable(initial, true, `${this.scope}/${spec.name}`));
      initial.dispose();
    }
  }

  static create(options: CreateModelOptions = {}): VisionLanguageModel {
    const tokenizer = options.tokenizer ?? new Tokenizer();
    const config = resolveModelConfig(options, tokenizer);
    return new VisionLanguageModel(config, tokenizer, initialParameterValues(config, options.seed ?? 0));
  }

  get parameterCount(): number {
    return countParameters(this.config);
  }

  /** The trainable variables in canonical order (gradients, optimizer slots and checkpoints use it). */
  get trainableVariables(): tf.Variable[] {
    return [...this.variables.values()];
  }

  /** Logical weight names (`decoder.0.mlp.up.weight`, …) in canonical order. */
  get weightNames(): string[] {
    return [...this.variables.keys()];
  }

  /** The logical name of one of this model's tfjs variable names, or undefined. */
  logicalName(variableName: string): string | undefined {
    const prefix = `${this.scope}/`;
    return variableName.startsWith(prefix) ? variableName.slice(prefix.length) : undefined;
  }

  readonly weight: WeightLookup = (name) => {
    const variable = this.variables.get(name);
    if (!variable) throw new Error(`The model has no weight ${name}.`);
    return variable;
  };

  /** Copies of every weight, by logical name. */
  getWeights(): Map<string, Float32Array> {
    this.assertLive();
    const result = new Map<string, Float32Array>();
    for (const [name, variable] of this.variables) result.set(name, variable.dataSync() as Float32Array);
    return result;
  }

  /** Assigns weights by logical name; every weight must be present with its shape's size. */
  setWeights(values: Map<string, Float32Array>): void {
    this.assertLive();
    for (const [name, variable] of this.variables) {
      const value = values.get(name);
      if (!value || value.length !== variable.size) {
        throw new Error(`Weight ${name} needs ${variable.size} values; got ${value?.length ?? 'none'}.`);
      }
      tf.tidy(() => variable.assign(tf.tensor(value, variable.shape, 'float32')));
    }
  }

  /** Builds the input tensors for token sequences with their images (see `prepareInputs`). */
  prepare(sequences: readonly ModelSequence[], padding: 'right' | 'left' = 'right', length?: number): ModelInputs {
    return timePhase('prepare', () =>
      prepareInputs(this.config, sequences, {
        padding,
        ...(length !== undefined ? { length } : {}),
        padId: this.tokenizer.padId,
        imagePadId: this.tokenizer.imagePadId,
        ...(this.pointerCallIds ? { pointerCallIds: this.pointerCallIds } : {}),
      }),
    );
  }

  /** Patch rows [images·patches, patch values] → image tokens [images·imageTokenCount, d]. */
  encodeImages(patches: tf.Tensor2D): tf.Tensor2D {
    return this.encodeImagesWithLocal(patches).encoded;
  }

  /**
   * What the 'max' or 'conv' readout sums up of each image ([images, d], before the readout's MLP):
   * what an answer after the image reads of it.
   */
  readoutSummaries(patches: tf.Tensor2D): tf.Tensor2D {
    const { readout } = this.config.vision;
    if (readout !== 'max' && readout !== 'conv') {
      throw new Error(`readoutSummaries needs vision.readout 'max' or 'conv' (a summary per image); this model's is ${String(readout)}.`);
    }
    const { encoded, readoutValues } = this.encodeImagesWithLocal(patches);
    return poolImages(this.config, this.weight, readoutValues ?? encoded);
  }

  /**
   * The image tokens, and with the grid pointer each token's own patch content before any layer mixes patches (the
   * projected, normed patch, without its position): what the grid pointer's keys read, so that
   * pointing is a per-patch detector rather than a memory of whole images.
   */
  private encodeImagesWithLocal(patches: tf.Tensor2D): EncodedImages {
    return timePhase('image.encoder', () => this.encodeImagesUntimed(patches));
  }

  private encodeImagesUntimed(patches: tf.Tensor2D): EncodedImages {
    const { config, weight } = this;
    const grid = patchGrid(config);
    const perImage = grid * grid;
    const imageCount = patches.shape[0] / perImage;
    const d = config.modelDimension;
    const epsilon = config.layerNormEpsilon;
    const features = this.patchFeatures(patches);
    // The 'conv' readout reads the stem's blocks themselves, before the projection fixes where in a patch each one is.
    const readoutValues = config.vision.readout === 'conv' ? convReadoutValues(config, weight, features) : undefined;
    const projected = linear(features, weight('image.patch.weight'), weight('image.patch.bias'));
    const normed = layerNorm(projected, weight('image.patchNorm.gain'), weight('image.patchNorm.bias'), epsilon);
    const rows = tf.tensor1d(Array.from({ length: perImage }, (_, index) => Math.floor(index / grid)), 'int32');
    const columns = tf.tensor1d(Array.from({ length: perImage }, (_, index) => index % grid), 'int32');
    const position = tf.add(tf.gather(weight('image.row'), rows), tf.gather(weight('image.column'), columns));
    // The pointer's keys: the patch's content alone (with its position, a query could name a
    // memorised place instead of finding what is there).
    const local = config.vision.pointer ? (normed as tf.Tensor2D) : undefined;
    let x = tf.reshape(tf.add(tf.reshape(normed, [imageCount, perImage, d]), position), [imageCount * perImage, d]) as tf.Tensor2D;
    const shape = { batch: imageCount, length: perImage, heads: config.headCount };
    for (let layer = 0; layer < config.encoderLayers; layer++) {
      x = transformerBlock(x, weight, `encoder.${layer}`, shape, undefined, epsilon).output;
    }
    let encoded = layerNorm(x, weight('image.outputNorm.gain'), weight('image.outputNorm.bias'), epsilon) as tf.Tensor2D;
    if (config.vision.grid) {
      const gridShape = { images: imageCount, patches: grid, merge: config.vision.grid.cellPatches };
      encoded = gridPropagation(encoded, weight, gridShape, config.vision.grid.layers, epsilon);
    }
    const merge = config.vision.spatialMerge;
    if (merge === 1) return { encoded, local, readoutValues };
    const concatenated = mergePatchBlocks(encoded, { images: imageCount, patches: grid, merge });
    const hidden = gelu(linear(concatenated, weight('image.merger.up.weight'), weight('image.merger.up.bias'))) as tf.Tensor2D;
    const merged = linear(hidden, weight('image.merger.down.weight'), weight('image.merger.down.bias'));
    if (!local) return { encoded: merged, local };
    // A merged token's content for the pointer: the mean of its patches'.
    const mergedLocal = tf.div(tf.addN(tf.split(mergePatchBlocks(local, { images: imageCount, patches: grid, merge }), merge * merge, 1)), merge * merge) as tf.Tensor2D;
    return { encoded: merged, local: mergedLocal };
  }

  /** What the patch projection reads: the raw pixels, or the stem's per-pixel features pooled in blocks (a mean or a smooth maximum). */
  private patchFeatures(patches: tf.Tensor2D): tf.Tensor2D {
    const { config, weight } = this;
    const settings = config.vision.stem;
    if (!settings) return patches;
    const { channels, pool, pooling } = settings;
    const side = config.patchSize;
    const stem = (rows: tf.Tensor2D): tf.Tensor2D =>
      tf.tidy(() => {
        const count = rows.shape[0];
        // Patch rows are (py, px, channel) flattened: one pixel per row of three values.
        const pixels = tf.reshape(rows, [count * side * side, 3]) as tf.Tensor2D;
        const features = tf.relu(linear(pixels, weight('image.stem.weight'), weight('image.stem.bias')));
        if (pool === 1) return tf.reshape(features, [count, side * side * channels]);
        const blocks = tf.reshape(features, [count, side / pool, pool, side / pool, pool, channels]);
        return tf.reshape(tf.mean(blocks, [2, 4]), [count, (side / pool) ** 2 * channels]);
      });
    // A smooth maximum, (1/β)·log mean exp(β·f): a hard max's gradient goes to every tied element
    // of a flat region; this one's goes to the pixels that lit the feature. On wasm one kernel each
    // way, which never stores the per-pixel features (@saccade/tensor's smoothMaxStem).
    const smoothMax = (rows: tf.Tensor2D): tf.Tensor2D =>
      smoothMaxStem(rows, weight('image.stem.weight'), weight('image.stem.bias'), { patchSize: side, pool, sharpness: STEM_MAX_SHARPNESS });
    // Per-pixel features are patchSize² times the patches' rows: an evaluation's batch of images
    // at once would not fit the wasm heap, so they are made a slice at a time. A convolution reads
    // across patch borders, so its slices are whole images.
    const kernel = settings.kernel ?? 1;
    const grid = patchGrid(config);
    const convolution = (rows: tf.Tensor2D): tf.Tensor2D =>
      convStem(rows, weight('image.stem.weight'), weight('image.stem.bias'), { grid, patchSize: side, pool, kernel, pooling, sharpness: STEM_MAX_SHARPNESS });
    const run = kernel > 1 ? convolution : pooling === 'max' && pool > 1 ? smoothMax : stem;
    const slice = kernel > 1 ? Math.max(1, Math.floor(STEM_CHUNK_PATCHES / (grid * grid))) * grid * grid : STEM_CHUNK_PATCHES;
    const total = patches.shape[0];
    return timePhase('image.stem', () => {
      if (total <= slice) return run(patches);
      const parts: tf.Tensor2D[] = [];
      for (let start = 0; start < total; start += slice) {
        parts.push(run(tf.slice(patches, [start, 0], [Math.min(slice, total - start), -1])));
      }
      return tf.concat(parts, 0);
    });
  }

  /** Token, position and image embeddings of the inputs: [batch·length, d]. */
  embed(inputs: ModelInputs): tf.Tensor2D {
    return this.embedWithPointerKeys(inputs).x;
  }

  /**
   * `embed`, and with the grid pointer the patches' local features at their slots (zeros
   * elsewhere), with the readout the image tokens at theirs.
   */
  private embedWithPointerKeys(inputs: ModelInputs): { x: tf.Tensor2D; pointer: PointerStates | undefined } {
    const { weight } = this;
    const d = this.config.modelDimension;
    const tokens = tf.gather(weight('token.embedding'), tf.reshape(inputs.tokens, [-1]));
    const { batch, length } = inputs;
    let x = inputs.uniformPositions
      ? tf.reshape(
          tf.add(tf.reshape(tokens, [batch, length, d]), tf.slice(weight('position.embedding'), [0, 0], [length, d])),
          [batch * length, d],
        )
      : tf.add(tokens, tf.gather(weight('position.embedding'), tf.reshape(inputs.positions, [-1])));
    // Without images the pointer has nothing to point at (its terms are masked); zeros keep a generation's cache uniform.
    // The readout reads the image tokens themselves; without it the pointer needs only its keys.
    const states = (keys: tf.Tensor2D, values: tf.Tensor2D): PointerStates => (this.config.vision.readout ? { keys, values } : { keys });
    if (!inputs.patches) {
      if (!inputs.pointer) return { x: x as tf.Tensor2D, pointer: undefined };
      const zeros = tf.zeros([batch * length, d]) as tf.Tensor2D;
      return { x: x as tf.Tensor2D, pointer: states(zeros, tf.zeros([batch * length, readoutValueWidth(this.config)])) };
    }
    const { encoded, local, readoutValues } = this.encodeImagesWithLocal(inputs.patches);
    const placed = this.placeImageTokens(inputs, encoded);
    x = tf.add(x, placed);
    if (!inputs.pointer || !local) return { x: x as tf.Tensor2D, pointer: undefined };
    return { x: x as tf.Tensor2D, pointer: states(this.placeImageTokens(inputs, local), readoutValues ? this.placeImageTokens(inputs, readoutValues) : placed) };
  }

  /** Image-token rows [images·tokens, width] at their `<image_pad>` slots of the sequence, zeros elsewhere: [batch·length, width]. */
  private placeImageTokens(inputs: ModelInputs, features: tf.Tensor2D): tf.Tensor2D {
    const d = features.shape[1];
    const { batch, length } = inputs;
    const runs = inputs.sharedImageRuns;
    if (runs) {
      // Same slot columns in every row: each run is a slice of every row's features, padded to
      // the sequence (a pad's gradient is a slice; gather's is a slow scatter on wasm).
      const perRow = tf.reshape(features, [batch, -1, d]);
      let offset = 0;
      const placed = runs.map((run) => {
        const piece = tf.slice(perRow, [0, offset, 0], [batch, run.size, d]);
        offset += run.size;
        return tf.pad(piece, [[0, 0], [run.start, length - run.start - run.size], [0, 0]]);
      });
      return tf.reshape(placed.length === 1 ? (placed[0] as tf.Tensor) : tf.addN(placed), [batch * length, d]) as tf.Tensor2D;
    }
    // Row 0 is zeros for text positions; slot k+1 takes image token k.
    const table = tf.concat([tf.zeros([1, d]), features], 0);
    return tf.gather(table, inputs.imageSlots) as tf.Tensor2D;
  }

  /**
   * The whole network on prepared inputs. Call inside tf.tidy (or dispose the outputs).
   * `lastPosition`: the heads read each row's last position only, and the last decoder layer
   * computes only what that position and the KV cache need (a prefill's logits); not with the grid
   * pointer, whose terms read every position.
   */
  forward(inputs: ModelInputs, options: { cache?: boolean; lastPosition?: boolean } = {}): ForwardOutput {
    this.assertLive();
    const { config, weight } = this;
    if (options.lastPosition && config.vision.pointer) {
      throw new InvalidArgumentError({ argument: 'options.lastPosition', expected: 'false with config.vision.pointer (its terms read every position)', value: true });
    }
    const { batch, length } = inputs;
    const causal = tf.tensor2d(causalBias(length), [length, length]);
    const bias = inputs.keyBias
      ? tf.add(causal, tf.reshape(inputs.keyBias, [batch, 1, 1, length]))
      : causal;
    const embedded = this.embedWithPointerKeys(inputs);
    let x = embedded.x;
    const cache: { keys: tf.Tensor4D; values: tf.Tensor4D }[] = [];
    const shape = { batch, length, heads: config.headCount };
    x = timePhase('decoder', () => {
      let hidden = x;
      for (let layer = 0; layer < config.decoderLayers; layer++) {
        const block =
          options.lastPosition && layer === config.decoderLayers - 1
            ? transformerBlockLastPosition(hidden, weight, `decoder.${layer}`, shape, inputs.keyBias, config.layerNormEpsilon)
            : transformerBlock(hidden, weight, `decoder.${layer}`, shape, bias, config.layerNormEpsilon);
        hidden = block.output;
        if (options.cache) cache.push({ keys: block.keys, values: block.values });
      }
      return hidden;
    });
    const pointer = inputs.pointer && embedded.pointer ? { inputs: inputs.pointer, batch, length, states: embedded.pointer } : undefined;
    return timePhase('heads', () => this.heads(x, options.cache ? cache : undefined, pointer));
  }

  /**
   * Final norm, LM head (with the grid pointer's digit terms, and its readout added to the state
   * the head reads) and value head on hidden states [rows, d].
   */
  heads(hidden: tf.Tensor2D, cache?: ForwardOutput['cache'], pointer?: PointerSource): ForwardOutput {
    const { weight, config } = this;
    const normed = layerNorm(hidden, weight('decoder.norm.gain'), weight('decoder.norm.bias'), config.layerNormEpsilon) as tf.Tensor2D;
    const values = tf.reshape(linear(normed, weight('value.weight'), weight('value.bias')), [-1]) as tf.Tensor1D;
    if (!config.vision.pointer || !pointer) {
      const logits = linear(normed, weight('head.weight'), weight('head.bias'));
      return cache ? { logits, values, cache } : { logits, values };
    }
    const digits = this.digitIds;
    const terms =
      'cache' in pointer
        ? pointerStepTerms(config, normed, weight, pointer.cache, digits)
        : pointerTerms(config, normed, pointer.states, weight, pointer.inputs, pointer.batch, pointer.length, digits);
    const read = terms.readout ? (tf.add(normed, terms.readout) as tf.Tensor2D) : normed;
    const logits = tf.add(linear(read, weight('head.weight'), weight('head.bias')), terms.digits) as tf.Tensor2D;
    if (!cache || 'cache' in pointer) return cache ? { logits, values, cache } : { logits, values };
    return { logits, values, cache, pointer: pointerCacheOf(config, pointer.states, weight, pointer.inputs, pointer.batch) };
  }


  /**
   * Differentiable per-token log-probs, entropies and values for trainers (see LogProbsAndValues).
   * `entropies: false` skips the entropy (an SFT step does not need it); it is then all zeros.
   * `sampling`: log-probs and entropies of the distribution a sampler drew from (temperature,
   * banned ids) instead of the model's own.
   */
  logProbsAndValues(inputs: ModelInputs, options: { entropies?: boolean; sampling?: SamplingDistribution } = {}): LogProbsAndValues {
    return tf.tidy(() => {
      const { batch, length } = inputs;
      const vocabulary = this.config.vocabularySize;
      const { logits, values } = this.forward(inputs);
      // Every position predicts the next token; the last one predicts padding and is dropped.
      const next = tf.concat([tf.slice(inputs.tokens, [0, 1], [batch, length - 1]), tf.fill([batch, 1], this.tokenizer.padId, 'int32')], 1);
      const logSoftmax = tf.logSoftmax(options.sampling ? samplingLogits(logits, options.sampling, vocabulary) : logits);
      const picked = tf.sum(tf.mul(logSoftmax, tf.oneHot(tf.reshape(next, [-1]), vocabulary)), -1);
      // Shift right: entry t is about token t; column 0 has no prediction.
      const align = (x: tf.Tensor): tf.Tensor2D =>
        tf.pad(tf.slice(tf.reshape(x, [batch, length]), [0, 0], [batch, length - 1]), [[0, 0], [1, 0]]) as tf.Tensor2D;
      const entropy =
        options.entropies === false
          ? tf.zeros([batch, length])
          : align(tf.neg(tf.sum(tf.mul(tf.exp(logSoftmax), logSoftmax), -1)));
      return { logProbs: align(picked), entropies: entropy as tf.Tensor2D, values: align(values) };
    });
  }

  /** Samples continuations with a KV cache: results[prompt][sample] (see GenerateOptions). */
  generate(options: GenerateOptions): Promise<GeneratedSample[][]> {
    this.assertLive();
    return generate(this, options);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const variable of this.variables.values()) variable.dispose();
  }

  private assertLive(): void {
    if (this.disposed) throw new Error('The model was disposed.');
  }
}

/**
 * Far enough below any logit that exp() of it is exactly 0 in float32, near enough that float32
 * still resolves differences between two models' banned log-probs (at MASKED's 1e9 they round in
 * steps of 64, and a KL or ratio of such context positions overflows to NaN).
 */
const BANNED = -1e4;

/** Logits of the sampling distribution: divided by its temperature, banned ids pushed to BANNED. */
function samplingLogits(logits: tf.Tensor2D, sampling: SamplingDistribution, vocabulary: number): tf.Tensor2D {
  if (!(sampling.temperature > 0)) throw new RangeError(`sampling.temperature must be > 0; got ${sampling.temperature}.`);
  const bias = new Float32Array(vocabulary);
  for (const id of sampling.bannedIds) if (id >= 0 && id < vocabulary) bias[id] = BANNED;
  const scaled = sampling.temperature === 1 ? logits : tf.div(logits, sampling.temperature);
  return tf.add(scaled, tf.tensor1d(bias)) as tf.Tensor2D;
}

/** [length, length]: 0 on and below the diagonal, MASKED above (a query sees itself and earlier keys). */
export function causalBias(length: number): Float32Array {
  const bias = new Float32Array(length * length);
  for (let query = 0; query < length; query++) {
    for (let key = query + 1; key < length; key++) bias[query * length + key] = MASKED;
  }
  return bias;
}
