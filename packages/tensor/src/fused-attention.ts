import { getKernel } from '@tensorflow/tfjs-core';
import { FUSED_ATTENTION_GRAD_KERNEL, FUSED_ATTENTION_KERNEL } from './kernels/fused-attention.js';
import { simdKernelsStatus } from './kernels/simd-kernels.js';
import { tf } from './tf.js';

/** The sequences of the rows: `batch` sequences of `length` positions, attended by `heads` heads. */
export interface FusedAttentionShape {
  batch: number;
  length: number;
  heads: number;
}

function checkShapes(qkv: tf.Tensor, bias: tf.Tensor | undefined, shape: FusedAttentionShape): void {
  const { batch, length, heads } = shape;
  const fail = (message: string): never => {
    throw new Error(`fusedAttention: ${message}`);
  };
  if (![batch, length, heads].every((value) => Number.isInteger(value) && value > 0)) fail(`batch, length and heads must be positive integers; got ${batch}, ${length}, ${heads}`);
  const width = qkv.shape[1] ?? 0;
  if (qkv.rank !== 2 || qkv.shape[0] !== batch * length || width % (3 * heads) !== 0 || width === 0) {
    fail(`qkv must be [batch·length, 3·heads·size] = [${batch * length}, a positive multiple of ${3 * heads}]; got [${qkv.shape.join(', ')}]`);
  }
  if (bias && (bias.rank < 2 || bias.rank > 4 || bias.shape[bias.rank - 1] !== length || bias.shape[bias.rank - 2] !== length)) {
    fail(`bias must end in [${length}, ${length}] (queries, keys) and broadcast to [${batch}, ${heads}, ${length}, ${length}]; got [${bias.shape.join(', ')}]`);
  }
}

/** [batch·length, d] → [batch, heads, length, d/heads]. */
function splitHeads(x: tf.Tensor, { batch, length, heads }: FusedAttentionShape): tf.Tensor4D {
  return tf.transpose(tf.reshape(x, [batch, length, heads, (x.shape[1] ?? 0) / heads]), [0, 2, 1, 3]);
}

/**
 * Attention as tfjs ops, differentiated by tfjs: what every backend other than wasm runs (and
 * wasm for a bias of another shape), and what the fused kernels are tested against.
 */
export function fusedAttentionOps(qkv: tf.Tensor2D, bias: tf.Tensor | undefined, shape: FusedAttentionShape): tf.Tensor2D {
  checkShapes(qkv, bias, shape);
  return tf.tidy(() => {
    const [q, k, v] = tf.split(qkv, 3, 1) as [tf.Tensor2D, tf.Tensor2D, tf.Tensor2D];
    const size = (q.shape[1] ?? 0) / shape.heads;
    // Scaling q ([rows, d]) is cheaper than scaling the scores ([rows, length]).
    const scores = tf.matMul(splitHeads(tf.mul(q, 1 / Math.sqrt(size)), shape), splitHeads(k, shape), false, true);
    const probabilities = tf.softmax(bias ? tf.add(scores, bias) : scores);
    const context = tf.matMul(probabilities, splitHeads(v, shape));
    return tf.reshape(tf.transpose(context, [0, 2, 1, 3]), [shape.batch * shape.length, q.shape[1] ?? 0]);
  });
}

/**
 * Batch items the fused kernels see in `bias`: 1 when it is shared ([length, length], leading
 * axes all 1), `batch` for [batch, 1, length, length]; undefined for any other broadcast (per head).
 */
function biasItems(bias: tf.Tensor, batch: number): number | undefined {
  const leading = bias.shape.slice(0, -2);
  if (leading.every((dimension) => dimension === 1)) return 1;
  if (bias.rank === 4 && bias.shape[0] === batch && bias.shape[1] === 1) return batch;
  return undefined;
}

/** The fused kernels run when the backend is wasm, they are registered and the SIMD module loads. */
function fused(qkv: tf.Tensor, bias: tf.Tensor | undefined, batch: number): boolean {
  return (
    qkv.dtype === 'float32' &&
    (bias === undefined || (bias.dtype === 'float32' && biasItems(bias, batch) !== undefined)) &&
    tf.getBackend() === 'wasm' &&
    getKernel(FUSED_ATTENTION_KERNEL, 'wasm') !== undefined &&
    getKernel(FUSED_ATTENTION_GRAD_KERNEL, 'wasm') !== undefined &&
    simdKernelsStatus(tf.backend()).available
  );
}

function fusedKernels(qkv: tf.Tensor2D, bias: tf.Tensor | undefined, shape: FusedAttentionShape): tf.Tensor2D {
  const size = (qkv.shape[1] ?? 0) / 3 / shape.heads;
  // The scale as the ops' float32 scalar holds it.
  const attrs = { batch: shape.batch, length: shape.length, heads: shape.heads, scale: Math.fround(1 / Math.sqrt(size)) };
  const withBias = (inputs: Record<string, tf.Tensor>) => (bias ? { ...inputs, bias } : inputs);
  // The bias is a mask, not an input of the gradient; it is saved all the same, so that the
  // backward pass still has it after the caller's tidy ends.
  const attention = tf.customGrad((...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
    const [x, save] = args as [tf.Tensor, tf.GradSaveFunc];
    const [out, stats] = tf.engine().runKernel(FUSED_ATTENTION_KERNEL, withBias({ qkv: x }), { ...attrs }) as tf.Tensor[];
    save(bias ? [x, stats!, bias] : [x, stats!]);
    return {
      value: out!,
      gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
        const [savedQkv, savedStats, savedBias] = saved as [tf.Tensor, tf.Tensor, tf.Tensor | undefined];
        const inputs: Record<string, tf.Tensor> = { qkv: savedQkv, stats: savedStats, dy };
        if (savedBias) inputs['bias'] = savedBias;
        return [tf.engine().runKernel(FUSED_ATTENTION_GRAD_KERNEL, inputs, { ...attrs }) as tf.Tensor];
      },
    };
  }) as (x: tf.Tensor) => tf.Tensor2D;
  return attention(qkv);
}

/**
 * Multi-head self-attention on a fused projection: `qkv` is [batch·length, 3·d], queries, keys and
 * values side by side, each d = heads·size wide with head h in columns h·size…(h+1)·size (a
 * `[rows, d] · [d, 3d]` projection's output). Returns the context [batch·length, d], heads side by
 * side: softmax((q/√size)·kᵀ + bias)·v per sequence and head. `bias` (optional) is added to the
 * scores, broadcast to [batch, heads, length, length]: 0 where a query may look, ≤ −1e8 (the
 * models' −1e9) where it may not; it is a mask, with no gradient.
 *
 * On the wasm backend with Saccade's SIMD kernels and a bias of [length, length] or
 * [batch, 1, length, length] (or none), one kernel each way (`SaccadeFusedAttention`,
 * `SaccadeFusedAttentionGrad`) that reads the heads in place, never holds the whole batch's scores,
 * and skips the keys after a query's last unmasked one (half the work under a causal mask);
 * elsewhere the tfjs ops (`fusedAttentionOps`).
 */
export function fusedAttention(qkv: tf.Tensor2D, bias: tf.Tensor | undefined, shape: FusedAttentionShape): tf.Tensor2D {
  checkShapes(qkv, bias, shape);
  return fused(qkv, bias, shape.batch) ? fusedKernels(qkv, bias, shape) : fusedAttentionOps(qkv, bias, shape);
}
