// Attention test cases shared by the fused attention's tests (src/fused-attention.test.ts) and the
// native kernel's (src/native-attention.test.ts): shapes, masks and the inputs they make.
import { tf, type FusedAttentionShape } from '../src/index.js';
import { randomTensor } from './compare-backends.js';

export const MASKED = -1e9;

export interface Case {
  name: string;
  shape: FusedAttentionShape;
  size: number;
  /** none; causal [L, L]; causal plus left padding per sequence [B, 1, L, L]; a shared [1, 1, L, L] of small biases with keys masked in the middle of rows. */
  mask: 'none' | 'causal' | 'left-padded' | 'holes';
  /** Scales qkv: ×8 makes scores reach hundreds, where e^s overflows floats without the max. */
  scale: number;
  seed: number;
}

/** The additive bias of a case, as a Float32Array and its shape. */
export function biasOf({ shape: { batch, length }, mask, seed }: Case): { values: Float32Array; shape: number[] } | undefined {
  if (mask === 'none') return undefined;
  const causal = (i: number, j: number) => (j > i ? MASKED : 0);
  if (mask === 'causal') {
    const values = new Float32Array(length * length);
    for (let i = 0; i < length; i++) for (let j = 0; j < length; j++) values[i * length + j] = causal(i, j);
    return { values, shape: [length, length] };
  }
  if (mask === 'left-padded') {
    // Sequence b has b·2 padding positions first: its padding rows mask every key (computed
    // literally, as the ops do), its other rows the padding keys and the future.
    const values = new Float32Array(batch * length * length);
    for (let b = 0; b < batch; b++) for (let i = 0; i < length; i++) for (let j = 0; j < length; j++) {
      values[(b * length + i) * length + j] = Math.fround(causal(i, j) + (j < b * 2 ? MASKED : 0));
    }
    return { values, shape: [batch, 1, length, length] };
  }
  const values = new Float32Array(length * length);
  const noise = randomTensor([length * length], seed + 7).dataSync();
  for (let i = 0; i < length; i++) for (let j = 0; j < length; j++) {
    values[i * length + j] = (i + j) % 3 === 1 && j !== i ? MASKED : noise[i * length + j]!;
  }
  return { values, shape: [1, 1, length, length] };
}

/** qkv (scaled by the case), dy and the bias of a case, from its seed. */
export function inputs(c: Case) {
  const { batch, length, heads } = c.shape;
  const qkv = tf.tidy(() => tf.mul(randomTensor([batch * length, 3 * heads * c.size], c.seed), c.scale)) as tf.Tensor2D;
  const dy = randomTensor([batch * length, heads * c.size], c.seed + 1) as tf.Tensor2D;
  const given = biasOf(c);
  const bias = given ? tf.tensor(given.values, given.shape) : undefined;
  return { qkv, dy, bias };
}
