import * as tf from '@tensorflow/tfjs-core';
import { combinePointerCaches, disposePointerCache, excludedCells, mapPointerCache, markVisited, namedCell, openColumn, pointerGridSide, type PointerCache } from './grid-pointer';
import type { ModelSequence } from './model-inputs';
import { timePhase } from './phase-timer';
import { bannedTokenIds, sampleToken, type SampleSettings } from './sample-token';
import { createRandom } from './seeded-random';
import { transformerBlockStep } from './transformer-layers';
import type { VisionLanguageModel } from './vision-language-model';

/**
 * What generate samples: the prompts with their images, samples per prompt, temperature, top-p,
 * token limit, stop strings, seed and abort signal.
 */
export interface GenerateOptions {
  /** Prompts (usually ending in `<|assistant|>`), each with its images. */
  prompts: readonly ModelSequence[];
  /** Samples per prompt (default 1). */
  n?: number;
  /** Default 1; 0 is greedy. */
  temperature?: number;
  /** Default 1 (off). */
  topP?: number;
  /** Generated tokens per sample, the end token included (default 64; capped by maxSequenceLength). */
  maxTokens?: number;
  /** Stop once the text contains one of these (it stays in the text). */
  stop?: readonly string[];
  /** Seed of the sampler (default 0): same seed, same samples. */
  seed?: number;
  /** Decode with a KV cache (default true); false re-runs every sequence each step, for checking. */
  useCache?: boolean;
  signal?: AbortSignal;
}

/**
 * One sample of generate: its tokens and text, each token's log-probability (what the
 * policy-gradient losses start from), and why it ended.
 */
export interface GeneratedSample {
  /** Generated ids; the end token `<|end|>` included when the model wrote it. */
  tokens: number[];
  /** Decoded text without control tokens. */
  text: string;
  /**
   * Log-probability of each token under the distribution it was sampled from (temperature, banned
   * ids, top-p: see SampledToken); `logProbsAndValues` with the same `sampling` recomputes it.
   */
  logProbs: number[];
  finishReason: 'stop' | 'length';
}

interface SampleState extends GeneratedSample {
  prompt: number;
  limit: number;
  done: boolean;
}

interface DecodeState {
  logits: tf.Tensor2D;
  caches: { keys: tf.Tensor4D; values: tf.Tensor4D }[];
  keyBias: tf.Tensor2D;
  /** The grid pointer's keys of each row's last image (config.vision.pointer). */
  pointer?: PointerCache;
}

/** Samples `n` continuations of each prompt: results[prompt][sample]. */
export async function generate(model: VisionLanguageModel, options: GenerateOptions): Promise<GeneratedSample[][]> {
  const { tokenizer, config } = model;
  const n = options.n ?? 1;
  const random = createRandom(options.seed ?? 0);
  const stop = options.stop ?? [];
  const settings: SampleSettings = {
    temperature: options.temperature ?? 1,
    topP: options.topP ?? 1,
    banned: new Set(bannedTokenIds(tokenizer)),
  };
  const samples: SampleState[] = [];
  options.prompts.forEach((prompt, index) => {
    const limit = Math.max(0, Math.min(options.maxTokens ?? 64, config.maxSequenceLength - prompt.tokens.length));
    for (let sample = 0; sample < n; sample++) {
      samples.push({ prompt: index, limit, done: limit === 0, tokens: [], text: '', logProbs: [], finishReason: 'length' });
    }
  });

  /** Samples a token for each row's sample (rows of -1 are skipped); returns the rows that go on. */
  const advance = (logits: Float32Array | Int32Array | Uint8Array, rows: readonly number[]): number[] => {
    const vocabulary = config.vocabularySize;
    const next: number[] = [];
    rows.forEach((sampleIndex, row) => {
      const sample = sampleIndex >= 0 ? samples[sampleIndex] : undefined;
      if (!sample) return;
      const { token, logProb } = sampleToken(logits.subarray(row * vocabulary, (row + 1) * vocabulary), settings, random);
      sample.tokens.push(token);
      sample.logProbs.push(logProb);
      const before = sample.text.length;
      sample.text += tokenizer.decode([token], { skipControl: true });
      const hitStop = stop.some((text) => text.length > 0 && sample.text.includes(text, Math.max(0, before - text.length + 1)));
      if (token === tokenizer.endId || hitStop) {
        sample.done = true;
        sample.finishReason = 'stop';
      } else if (sample.tokens.length >= sample.limit) sample.done = true;
      else next.push(row);
    });
    return next;
  };

  const active = samples.flatMap((sample, index) => (sample.done ? [] : [index]));
  if (active.length > 0) {
    if (options.useCache ?? true) await decodeWithCache(model, options, samples, active, advance);
    else await decodeWithoutCache(model, options, samples, active, advance);
  }
  return options.prompts.map((_, prompt) =>
    samples
      .filter((sample) => sample.prompt === prompt)
      .map(({ tokens, text, logProbs, finishReason }) => ({ tokens, text, logProbs, finishReason })),
  );
}

/** Rows × length² of one prefill slice: 32 prompts of 280 tokens (two 64-token images and text) peak near 1 GB of the wasm heap. */
const PREFILL_BUDGET = 32 * 280 * 280;

type Advance = (logits: Float32Array | Int32Array | Uint8Array, rows: readonly number[]) => number[];

function lastColumn(logits: tf.Tensor2D, batch: number, length: number): tf.Tensor2D {
  const vocabulary = logits.shape[1];
  return tf.reshape(tf.slice(tf.reshape(logits, [batch, length, vocabulary]), [0, length - 1, 0], [batch, 1, vocabulary]), [batch, vocabulary]);
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('Generation was aborted.');
}

/**
 * Rows of `tensor` (axis 0) in the given order, as slices of contiguous runs and one concat: the
 * wasm GatherV2 kernel is slow enough on a KV cache to dominate generation.
 */
function selectRows<T extends tf.Tensor>(tensor: T, rows: readonly number[]): T {
  const runs: { start: number; size: number }[] = [];
  for (const row of rows) {
    const last = runs[runs.length - 1];
    if (last && last.start + last.size === row) last.size++;
    else runs.push({ start: row, size: 1 });
  }
  if (runs.length === 1 && runs[0]?.start === 0 && runs[0].size === tensor.shape[0]) return tensor;
  const rest = tensor.shape.slice(1).map(() => 0);
  const pieces = runs.map((run) => tf.slice(tensor, [run.start, ...rest], [run.size, ...tensor.shape.slice(1)]));
  return (pieces.length === 1 ? pieces[0] : tf.concat(pieces, 0)) as T;
}

/** Repeats each row n times in place ([a, b] → [a, a, b, b]) with a tile, not a gather. */
function repeatRows<T extends tf.Tensor>(tensor: T, n: number): T {
  if (n === 1) return tensor;
  const [rows = 0, ...rest] = tensor.shape;
  const tiled = tf.tile(tf.reshape(tensor, [rows, 1, ...rest]), [1, n, ...rest.map(() => 1)]);
  return tf.reshape(tiled, [rows * n, ...rest]) as T;
}

async function decodeWithCache(
  model: VisionLanguageModel,
  options: GenerateOptions,
  samples: SampleState[],
  initialActive: number[],
  advance: Advance,
): Promise<void> {
  const { config, tokenizer } = model;
  const n = options.n ?? 1;
  // Decoding steps feed every token but the last: room for the longest sample's.
  const steps = Math.max(1, ...initialActive.map((index) => (samples[index]?.limit ?? 1) - 1));
  let state = timePhase('prefill', () => prefill(model, options, n, initialActive, steps));
  // The sample each cache row decodes, or -1 once it finished: finished rows stay (fed padding)
  // until a quarter of the rows are finished, then the cache is compacted in one go.
  let rows: number[] = [...initialActive];
  // Every row's next key goes to the same cache position: the prompts are left-padded to one length.
  let position = state.keyBias.shape[1] - steps;
  // Inhibition of return reads each row's last five tokens (its prompt's, then its own) for a call.
  const callIds = model.pointerCallIds;
  const side = pointerGridSide(config);
  const tailOf = (sample: number): number[] => {
    const state = samples[sample];
    return state ? [...(options.prompts[state.prompt]?.tokens.slice(-5) ?? []), ...state.tokens].slice(-5) : [];
  };
  try {
    for (;; position++) {
      throwIfAborted(options.signal);
      const logits = (await state.logits.data()) as Float32Array;
      const going = new Set(timePhase('decode.sample', () => advance(logits, rows)));
      rows = rows.map((sample, row) => (going.has(row) ? sample : -1));
      if (going.size === 0) break;
      const keep = rows.flatMap((sample, row) => (sample >= 0 ? [row] : []));
      const compact = rows.length - keep.length >= Math.max(1, rows.length / 4);
      if (compact) rows = keep.map((row) => rows[row] ?? -1);
      const previous = state;
      const last = (sample: number): { token: number; position: number } => {
        const state = samples[sample];
        if (!state) return { token: tokenizer.padId, position: 0 };
        const promptLength = options.prompts[state.prompt]?.tokens.length ?? 0;
        return { token: state.tokens.at(-1) ?? tokenizer.padId, position: promptLength + state.tokens.length - 1 };
      };
      const inputs = rows.map((sample) => (sample >= 0 ? last(sample) : { token: tokenizer.padId, position: 0 }));
      state = timePhase('decode.step', () => tf.tidy(() => {
        // Compacting copies the kept rows into new tensors, which the step then owns.
        const select = <T extends tf.Tensor>(tensor: T): T => (compact ? selectRows(tensor, keep) : tensor);
        const keyBias = select(previous.keyBias);
        let x = tf.add(
          tf.gather(model.weight('token.embedding'), tf.tensor1d(inputs.map((input) => input.token), 'int32')),
          tf.gather(model.weight('position.embedding'), tf.tensor1d(inputs.map((input) => input.position), 'int32')),
        ) as tf.Tensor2D;
        const caches = previous.caches.map((layer, index) => {
          const step = transformerBlockStep(
            x,
            model.weight,
            `decoder.${index}`,
            { keys: select(layer.keys), values: select(layer.values) },
            keyBias,
            position,
            config.headCount,
            config.layerNormEpsilon,
          );
          x = step.output;
          return { keys: step.keys, values: step.values };
        });
        let pointer = previous.pointer ? mapPointerCache(previous.pointer, (tensor) => tf.clone(select(tensor))) : undefined;
        // Inhibition of return: a call the fed token completed names a cell the pointer now leaves
        // out; after `[c,` this step reads the row from column c's cells only.
        if (pointer?.visited && callIds) {
          const tails = rows.map((sample) => (sample >= 0 ? tailOf(sample) : []));
          const visited = markVisited(pointer.visited, tails.map((tail) => namedCell(tail, callIds, side)), config.vision.inhibitionRadius ?? 0);
          const excluded = excludedCells(visited, tails.map((tail) => openColumn(tail, callIds, side)));
          pointer = { ...pointer, visited, ...(excluded === visited ? {} : { excluded }) };
        }
        const logits = model.heads(x, undefined, pointer ? { cache: pointer } : undefined).logits;
        return pointer ? { logits, caches, keyBias, pointer } : { logits, caches, keyBias };
      }));
      disposeState(previous, state);
    }
  } finally {
    disposeState(state);
  }
}

/**
 * Runs each prompt once and repeats its cache for its samples (the rows of `initialActive`). The
 * prefill's attention holds prompts × length² scores per layer, so prompts go through it a slice at
 * a time, all padded to one length so that the slices' caches stack. The caches and key bias get
 * room for `room` more positions (zeros: the bias lets every row look at them once written) before
 * they are repeated, as new tensors the decoding loop alone holds: it writes the KV cache in place.
 */
function prefill(model: VisionLanguageModel, options: GenerateOptions, n: number, initialActive: number[], room: number): DecodeState {
  const length = Math.max(...options.prompts.map((prompt) => prompt.tokens.length));
  const sliceSize = Math.max(1, Math.floor(PREFILL_BUDGET / (length * length)));
  const slices: DecodeState[] = [];
  try {
    for (let start = 0; start < options.prompts.length; start += sliceSize) {
      throwIfAborted(options.signal);
      const inputs = model.prepare(options.prompts.slice(start, start + sliceSize), 'left', length);
      try {
        slices.push(
          tf.tidy(() => {
            // Only the last position's logits are read: without the pointer the last layer computes no others.
            const lastPosition = !model.config.vision.pointer;
            const output = model.forward(inputs, { cache: true, lastPosition });
            // A copy: `inputs` (and its keyBias) is disposed below.
            const keyBias = inputs.keyBias ? tf.clone(inputs.keyBias) : tf.zeros([inputs.batch, inputs.length]);
            return {
              logits: lastPosition ? output.logits : lastColumn(output.logits, inputs.batch, inputs.length),
              caches: (output.cache ?? []).map((layer) => ({ keys: layer.keys, values: layer.values })),
              keyBias: keyBias as tf.Tensor2D,
              ...(output.pointer ? { pointer: output.pointer } : {}),
            };
          }),
        );
      } finally {
        inputs.dispose();
      }
    }
    // Stacked, repeated and selected into new tensors (clone: one slice with nothing to repeat or drop).
    return tf.tidy(() => {
      const stack = <T extends tf.Tensor>(parts: T[]): T => (parts.length === 1 ? parts[0]! : tf.concat(parts, 0)) as T;
      const expand = <T extends tf.Tensor>(tensor: T): T => tf.clone(selectRows(repeatRows(tensor, n), initialActive));
      const grow = (parts: tf.Tensor4D[]): tf.Tensor4D => expand(tf.pad(stack(parts), [[0, 0], [0, 0], [0, room], [0, 0]]));
      return {
        logits: expand(stack(slices.map((slice) => slice.logits))),
        caches: slices[0]!.caches.map((_, layer) => ({
          keys: grow(slices.map((slice) => slice.caches[layer]!.keys)),
          values: grow(slices.map((slice) => slice.caches[layer]!.values)),
        })),
        keyBias: expand(tf.pad(stack(slices.map((slice) => slice.keyBias)), [[0, 0], [0, room]])),
        ...(slices[0]!.pointer ? { pointer: combinePointerCaches(slices.map((slice) => slice.pointer!), (parts) => expand(stack(parts))) } : {}),
      };
    });
  } finally {
    slices.forEach((slice) => disposeState(slice));
  }
}

/** Disposes a state's tensors, but those `next` still holds (a cache written in place). */
function disposeState(state: DecodeState, next?: DecodeState): void {
  const held = new Set<tf.Tensor>(next ? [next.keyBias, ...next.caches.flatMap((layer) => [layer.keys, layer.values])] : []);
  tf.dispose([state.logits, state.keyBias, ...state.caches.flatMap((layer) => [layer.keys, layer.values])].filter((tensor) => !held.has(tensor)));
  if (state.pointer) disposePointerCache(state.pointer);
}

async function decodeWithoutCache(
  model: VisionLanguageModel,
  options: GenerateOptions,
  samples: SampleState[],
  initialActive: number[],
  advance: Advance,
): Promise<void> {
  let active = initialActive;
  while (active.length > 0) {
    throwIfAborted(options.signal);
    const sequences = active.map((index) => {
      const sample = samples[index];
      const prompt = options.prompts[sample?.prompt ?? 0];
      return { tokens: [...(prompt?.tokens ?? []), ...(sample?.tokens ?? [])], images: prompt?.images ?? [] };
    });
    const inputs = model.prepare(sequences, 'left');
    const logits = tf.tidy(() => lastColumn(model.forward(inputs).logits, inputs.batch, inputs.length));
    inputs.dispose();
    const data = (await logits.data()) as Float32Array;
    logits.dispose();
    const keep = advance(data, active);
    active = keep.map((row) => active[row] ?? 0);
  }
}
