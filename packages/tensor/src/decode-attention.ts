import { getKernel } from '@tensorflow/tfjs-core';
import { DECODE_ATTENTION_KERNEL } from './kernels/decode-attention.js';
import { simdKernelsStatus } from './kernels/simd-kernels.js';
import { tf } from './tf.js';

/** One layer's KV cache with room to grow: keys and values [rows, heads, capacity, size]. */
export interface KvCacheLayer {
  keys: tf.Tensor4D;
  values: tf.Tensor4D;
}

/** Where the step writes (positions before it are filled) and how many heads split d. */
export interface DecodeAttentionOptions {
  heads: number;
  position: number;
}

/** The step's context [rows, d] and the cache with the step's key and value at `position`. */
export interface DecodeAttentionResult extends KvCacheLayer {
  context: tf.Tensor2D;
}

function checkShapes(qkv: tf.Tensor, cache: KvCacheLayer, bias: tf.Tensor | undefined, { heads, position }: DecodeAttentionOptions): void {
  const fail = (message: string): never => {
    throw new Error(`decodeAttention: ${message}`);
  };
  const [rows, cacheHeads, capacity, size] = cache.keys.shape;
  if (cache.keys.rank !== 4 || cacheHeads !== heads || cache.values.shape.join() !== cache.keys.shape.join()) {
    fail(`keys and values must both be [rows, ${heads} heads, capacity, size]; got [${cache.keys.shape.join(', ')}] and [${cache.values.shape.join(', ')}]`);
  }
  if (qkv.rank !== 2 || qkv.shape[0] !== rows || qkv.shape[1] !== 3 * heads * size) {
    fail(`qkv must be [rows, 3·heads·size] = [${rows}, ${3 * heads * size}]; got [${qkv.shape.join(', ')}]`);
  }
  if (!Number.isInteger(position) || position < 0 || position >= capacity) fail(`position must be a whole number in [0, ${capacity}) (the cache's capacity); got ${position}`);
  if (bias && (bias.rank !== 2 || bias.shape[0] !== rows || bias.shape[1] !== capacity)) {
    fail(`bias must be [rows, capacity] = [${rows}, ${capacity}]; got [${bias.shape.join(', ')}]`);
  }
}

/** The step as tfjs ops: what every backend other than wasm runs, and what the kernel is tested against. */
export function decodeAttentionOps(qkv: tf.Tensor2D, cache: KvCacheLayer, bias: tf.Tensor2D | undefined, options: DecodeAttentionOptions): DecodeAttentionResult {
  checkShapes(qkv, cache, bias, options);
  const { heads, position } = options;
  const [rows, , capacity, size] = cache.keys.shape;
  return tf.tidy(() => {
    const [q, k, v] = tf.split(qkv, 3, 1) as [tf.Tensor2D, tf.Tensor2D, tf.Tensor2D];
    const place = (stored: tf.Tensor4D, item: tf.Tensor2D): tf.Tensor4D => {
      const parts = [tf.reshape(item, [rows, heads, 1, size])];
      if (position > 0) parts.unshift(tf.slice(stored, [0, 0, 0, 0], [rows, heads, position, size]));
      if (position + 1 < capacity) parts.push(tf.slice(stored, [0, 0, position + 1, 0], [rows, heads, capacity - position - 1, size]));
      return tf.concat(parts, 2) as tf.Tensor4D;
    };
    const keys = place(cache.keys, k);
    const values = place(cache.values, v);
    const filled = [rows, heads, position + 1, size];
    const queries = tf.reshape(tf.mul(q, Math.fround(1 / Math.sqrt(size))), [rows, heads, 1, size]);
    let scores = tf.sum(tf.mul(queries, tf.slice(keys, [0, 0, 0, 0], filled)), 3);
    if (bias) scores = tf.add(scores, tf.expandDims(tf.slice(bias, [0, 0], [rows, position + 1]), 1));
    const probabilities = tf.expandDims(tf.softmax(scores), 3);
    const context = tf.reshape(tf.sum(tf.mul(probabilities, tf.slice(values, [0, 0, 0, 0], filled)), 2), [rows, heads * size]) as tf.Tensor2D;
    return { context, keys, values };
  });
}

function fused(qkv: tf.Tensor, cache: KvCacheLayer, bias: tf.Tensor | undefined): boolean {
  return (
    [qkv, cache.keys, cache.values, ...(bias ? [bias] : [])].every((tensor) => tensor.dtype === 'float32') &&
    tf.getBackend() === 'wasm' &&
    getKernel(DECODE_ATTENTION_KERNEL, 'wasm') !== undefined &&
    simdKernelsStatus(tf.backend()).available
  );
}

/**
 * One decoding step of multi-head attention for each row against its KV cache. `qkv` is the step's
 * fused projection [rows, 3·d] (q | k | v, heads side by side as in `fusedAttention`); the cache
 * holds keys and values [rows, heads, capacity, size] with positions 0…position−1 filled; `bias`
 * [rows, capacity] is added to the scores (0 where a row may look, the models' −1e9 at its left
 * padding). The step's key and value go to `position`, and each row's query attends positions
 * 0…position: softmax((q/√size)·kᵀ + bias)·v, the context [rows, d].
 *
 * On the wasm backend with Saccade's SIMD kernels, one kernel (`SaccadeDecodeAttention`) that
 * writes the key and value into the cache tensors in place and returns them as they are: a step
 * costs its attention, not a copy of the cache (the tfjs route's concat was over a third of a
 * decode step). The cache tensors must then be the only tensors on their data (not a clone or
 * reshape: the kernel refuses them) and held by the decoding loop alone. Elsewhere the tfjs ops
 * (`decodeAttentionOps`), which return new cache tensors.
 */
export function decodeAttention(qkv: tf.Tensor2D, cache: KvCacheLayer, bias: tf.Tensor2D | undefined, options: DecodeAttentionOptions): DecodeAttentionResult {
  if (!fused(qkv, cache, bias)) return decodeAttentionOps(qkv, cache, bias, options);
  checkShapes(qkv, cache, bias, options);
  const size = cache.keys.shape[3];
  const inputs: Record<string, tf.Tensor> = { qkv, keys: cache.keys, values: cache.values };
  if (bias) inputs['bias'] = bias;
  const attrs = { heads: options.heads, position: options.position, scale: Math.fround(1 / Math.sqrt(size)) };
  const context = tf.engine().runKernel(DECODE_ATTENTION_KERNEL, inputs, attrs) as tf.Tensor2D;
  return { context, keys: cache.keys, values: cache.values };
}
