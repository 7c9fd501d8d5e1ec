import * as tf from '@tensorflow/tfjs-core';
import { decodeAttention, fusedAttention, gelu, layerNorm as fusedLayerNorm, type KvCacheLayer } from '@saccade/tensor';

/** Looks up a weight by its logical name; the model passes its own map. */
export type WeightLookup = (name: string) => tf.Tensor;

/**
 * Layer norm over the last axis: @saccade/tensor's, one fused kernel each way on wasm (the same
 * floats as its ops form, `layerNormOps`, which other backends run).
 */
export function layerNorm(x: tf.Tensor, gain: tf.Tensor, bias: tf.Tensor, epsilon: number): tf.Tensor {
  return fusedLayerNorm(x, gain, bias, epsilon);
}

/** GELU, tanh approximation: @saccade/tensor's, one fused kernel each way on wasm. */
export { gelu };

/** x [rows, in] · weight [in, out] + bias. */
export function linear(x: tf.Tensor2D, weight: tf.Tensor, bias: tf.Tensor): tf.Tensor2D {
  return tf.add(tf.matMul(x, weight as tf.Tensor2D), bias);
}

export interface AttentionShape {
  batch: number;
  length: number;
  heads: number;
}

/** [batch·length, d] → [batch, heads, length, d/heads]. */
export function splitHeads(x: tf.Tensor, { batch, length, heads }: AttentionShape): tf.Tensor4D {
  const headDimension = (x.shape[1] ?? 0) / heads;
  return tf.transpose(tf.reshape(x, [batch, length, heads, headDimension]), [0, 2, 1, 3]);
}

/** [batch, heads, length, d/heads] → [batch·length, d]. */
export function mergeHeads(x: tf.Tensor, { batch, length, heads }: AttentionShape): tf.Tensor2D {
  const headDimension = x.shape[3] ?? 0;
  return tf.reshape(tf.transpose(x, [0, 2, 1, 3]), [batch * length, heads * headDimension]);
}

export interface AttentionOutput {
  output: tf.Tensor2D;
  /** Keys and values [batch, heads, length, d/heads], for a KV cache. */
  keys: tf.Tensor4D;
  values: tf.Tensor4D;
}

/**
 * Multi-head self-attention over whole sequences. `bias` is added to the scores (broadcast to
 * [batch, heads, length, length]): 0 where a query may look, a large negative number elsewhere.
 * The attention itself is @saccade/tensor's `fusedAttention` on the fused q | k | v projection
 * (one kernel each way on wasm). The keys and values for a KV cache are split into heads only when
 * read (getters, computed once, in the caller's scope): a training step never reads them.
 */
export function selfAttention(
  x: tf.Tensor2D,
  weight: WeightLookup,
  prefix: string,
  shape: AttentionShape,
  bias: tf.Tensor | undefined,
): AttentionOutput {
  const qkv = linear(x, weight(`${prefix}.qkv.weight`), weight(`${prefix}.qkv.bias`));
  const context = fusedAttention(qkv, bias, shape);
  const output = linear(context, weight(`${prefix}.output.weight`), weight(`${prefix}.output.bias`));
  const width = x.shape[1] ?? 0;
  let cache: { keys: tf.Tensor4D; values: tf.Tensor4D } | undefined;
  const heads = () =>
    (cache ??= {
      keys: splitHeads(tf.slice(qkv, [0, width], [-1, width]), shape),
      values: splitHeads(tf.slice(qkv, [0, 2 * width], [-1, width]), shape),
    });
  return {
    output,
    get keys() {
      return heads().keys;
    },
    get values() {
      return heads().values;
    },
  };
}

export function mlp(x: tf.Tensor2D, weight: WeightLookup, prefix: string): tf.Tensor2D {
  const hidden = gelu(linear(x, weight(`${prefix}.up.weight`), weight(`${prefix}.up.bias`))) as tf.Tensor2D;
  return linear(hidden, weight(`${prefix}.down.weight`), weight(`${prefix}.down.bias`));
}

/** A pre-LN transformer block over whole sequences. */
export function transformerBlock(
  x: tf.Tensor2D,
  weight: WeightLookup,
  prefix: string,
  shape: AttentionShape,
  bias: tf.Tensor | undefined,
  epsilon: number,
): AttentionOutput {
  const normed = layerNorm(x, weight(`${prefix}.norm1.gain`), weight(`${prefix}.norm1.bias`), epsilon) as tf.Tensor2D;
  const attention = selfAttention(normed, weight, `${prefix}.attention`, shape, bias);
  const afterAttention = tf.add(x, attention.output);
  const normed2 = layerNorm(afterAttention, weight(`${prefix}.norm2.gain`), weight(`${prefix}.norm2.bias`), epsilon);
  const output = tf.add(afterAttention, mlp(normed2 as tf.Tensor2D, weight, `${prefix}.mlp`));
  return {
    output: output as tf.Tensor2D,
    // Read through, so that the heads are split only for a KV cache.
    get keys() {
      return attention.keys;
    },
    get values() {
      return attention.values;
    },
  };
}

/**
 * The last block of a prefill: keys and values at every position (the KV cache needs them), the
 * rest — attention output, MLP — at each row's last position only, the one whose logits generation
 * reads: [batch, d] out. The last query attends through `decodeAttention` (its key and value are
 * already in place), so it sees the same keys as the whole-sequence block. `keyBias` [batch,
 * length] masks left padding.
 */
export function transformerBlockLastPosition(
  x: tf.Tensor2D,
  weight: WeightLookup,
  prefix: string,
  shape: AttentionShape,
  keyBias: tf.Tensor2D | undefined,
  epsilon: number,
): AttentionOutput {
  const { batch, length, heads } = shape;
  const width = x.shape[1] ?? 0;
  const normed = layerNorm(x, weight(`${prefix}.norm1.gain`), weight(`${prefix}.norm1.bias`), epsilon) as tf.Tensor2D;
  const qkv = linear(normed, weight(`${prefix}.attention.qkv.weight`), weight(`${prefix}.attention.qkv.bias`));
  const cache = { keys: splitHeads(tf.slice(qkv, [0, width], [-1, width]), shape), values: splitHeads(tf.slice(qkv, [0, 2 * width], [-1, width]), shape) };
  const last = <T extends tf.Tensor2D>(rows: T): tf.Tensor2D => tf.reshape(tf.slice(tf.reshape(rows, [batch, length, -1]), [0, length - 1, 0], [batch, 1, -1]), [batch, -1]);
  const step = decodeAttention(last(qkv), cache, keyBias, { heads, position: length - 1 });
  const attention = linear(step.context, weight(`${prefix}.attention.output.weight`), weight(`${prefix}.attention.output.bias`));
  const afterAttention = tf.add(last(x), attention);
  const normed2 = layerNorm(afterAttention, weight(`${prefix}.norm2.gain`), weight(`${prefix}.norm2.bias`), epsilon);
  const output = tf.add(afterAttention, mlp(normed2 as tf.Tensor2D, weight, `${prefix}.mlp`));
  return { output: output as tf.Tensor2D, keys: step.keys, values: step.values };
}

/**
 * One decoding step per row against its KV cache with room to grow ([rows, heads, capacity,
 * d/heads], positions before `position` filled; see @saccade/tensor's `decodeAttention`): the
 * step's key and value go to `position`, written in place on wasm, so the returned keys and values
 * may be the cache's own tensors. `keyBias` [rows, capacity] masks each row's left padding.
 */
export function transformerBlockStep(
  x: tf.Tensor2D,
  weight: WeightLookup,
  prefix: string,
  cache: KvCacheLayer,
  keyBias: tf.Tensor2D,
  position: number,
  heads: number,
  epsilon: number,
): AttentionOutput {
  const normed = layerNorm(x, weight(`${prefix}.norm1.gain`), weight(`${prefix}.norm1.bias`), epsilon) as tf.Tensor2D;
  const qkv = linear(normed, weight(`${prefix}.attention.qkv.weight`), weight(`${prefix}.attention.qkv.bias`));
  const step = decodeAttention(qkv, cache, keyBias, { heads, position });
  const attention = linear(step.context, weight(`${prefix}.attention.output.weight`), weight(`${prefix}.attention.output.bias`));
  const afterAttention = tf.add(x, attention);
  const normed2 = layerNorm(afterAttention, weight(`${prefix}.norm2.gain`), weight(`${prefix}.norm2.bias`), epsilon);
  const output = tf.add(afterAttention, mlp(normed2 as tf.Tensor2D, weight, `${prefix}.mlp`));
  return { output: output as tf.Tensor2D, keys: step.keys, values: step.values };
}
