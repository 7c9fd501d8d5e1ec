import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { biasOf, inputs, type Case } from '../test/attention-cases.js';
import { expectClose, expectNoLeak, initWasm, kernelNames, largestMagnitude, readOutputs } from '../test/compare-backends.js';
import { FUSED_ATTENTION_GRAD_KERNEL, FUSED_ATTENTION_KERNEL, fusedAttentionConfig } from './kernels/fused-attention.js';
import { fusedAttention, fusedAttentionOps, setNativeMatMulEnabled, setSimdKernelsEnabled, tf, type FusedAttentionShape } from './index.js';

beforeAll(initWasm);
// These tests check the fused kernels' arithmetic against the ops route to ~1e-6: the ops' products
// stay on the wasm kernels, which the native products match bit for bit only in their default exact
// mode (SACCADE_NATIVE_MATMUL=fused rounds them otherwise).
beforeAll(() => setNativeMatMulEnabled(false));
afterAll(() => setNativeMatMulEnabled(true));
afterEach(() => setSimdKernelsEnabled(true));

/** The attention's value and the gradient of Σ dy·attention for qkv. */
function run(attention: typeof fusedAttention, { qkv, dy, bias }: ReturnType<typeof inputs>, shape: FusedAttentionShape): tf.Tensor[] {
  const value = attention(qkv, bias, shape);
  const gradient = tf.grad((x: tf.Tensor) => tf.sum(tf.mul(attention(x as tf.Tensor2D, bias, shape), dy)))(qkv);
  return [value, gradient];
}

/** The attention and Σ dy·attention's qkv gradient in doubles, straight from the definition. */
function float64Attention(qkv: ArrayLike<number>, dy: ArrayLike<number>, c: Case) {
  const { batch, length, heads } = c.shape;
  const size = c.size;
  const d = heads * size;
  const bias = biasOf(c);
  const biasItems = bias ? bias.values.length / (length * length) : 0;
  const scale = Math.fround(1 / Math.sqrt(size));
  const out = new Float64Array(batch * length * d);
  const grad = new Float64Array(batch * length * 3 * d);
  const at = (b: number, i: number, part: number, h: number, p: number) => (b * length + i) * 3 * d + part * d + h * size + p;
  for (let b = 0; b < batch; b++) for (let h = 0; h < heads; h++) {
    const probabilities: number[][] = [];
    for (let i = 0; i < length; i++) {
      const s: number[] = [];
      for (let j = 0; j < length; j++) {
        let dot = 0;
        for (let p = 0; p < size; p++) dot += qkv[at(b, i, 0, h, p)]! * scale * qkv[at(b, j, 1, h, p)]!;
        s.push(dot + (bias ? bias.values[((biasItems > 1 ? b : 0) * length + i) * length + j]! : 0));
      }
      const top = Math.max(...s);
      const e = s.map((x) => Math.exp(x - top));
      const total = e.reduce((x, y) => x + y, 0);
      probabilities.push(e.map((x) => x / total));
    }
    for (let i = 0; i < length; i++) {
      const p = probabilities[i]!;
      const dP: number[] = [];
      for (let j = 0; j < length; j++) {
        let dot = 0;
        for (let k = 0; k < size; k++) dot += dy[(b * length + i) * d + h * size + k]! * qkv[at(b, j, 2, h, k)]!;
        dP.push(dot);
        for (let k = 0; k < size; k++) {
          out[(b * length + i) * d + h * size + k] = out[(b * length + i) * d + h * size + k]! + p[j]! * qkv[at(b, j, 2, h, k)]!;
          grad[at(b, j, 2, h, k)] = grad[at(b, j, 2, h, k)]! + p[j]! * dy[(b * length + i) * d + h * size + k]!;
        }
      }
      const weighted = p.reduce((sum, pj, j) => sum + pj * dP[j]!, 0);
      for (let j = 0; j < length; j++) {
        const dS = p[j]! * (dP[j]! - weighted);
        for (let k = 0; k < size; k++) {
          grad[at(b, i, 0, h, k)] = grad[at(b, i, 0, h, k)]! + dS * qkv[at(b, j, 1, h, k)]! * scale;
          grad[at(b, j, 1, h, k)] = grad[at(b, j, 1, h, k)]! + dS * qkv[at(b, i, 0, h, k)]! * scale;
        }
      }
    }
  }
  return [out, grad];
}

describe('fusedAttention', () => {
  const cases: Case[] = [
    // The small preset's decoder: heads of 32, a causal mask, a length that is not a multiple of 4.
    { name: 'causal, heads of 32', shape: { batch: 2, length: 37, heads: 4 }, size: 32, mask: 'causal', scale: 1, seed: 1 },
    { name: 'causal, scores in the hundreds', shape: { batch: 2, length: 21, heads: 2 }, size: 16, mask: 'causal', scale: 8, seed: 2 },
    // Left padding: whole rows masked, per-sequence biases.
    { name: 'causal and left padding', shape: { batch: 4, length: 11, heads: 2 }, size: 8, mask: 'left-padded', scale: 1, seed: 3 },
    // The image encoder: no mask; odd head sizes (SIMD tails), one position, one head.
    { name: 'no mask, heads of 5', shape: { batch: 3, length: 9, heads: 3 }, size: 5, mask: 'none', scale: 1, seed: 4 },
    { name: 'no mask, one position', shape: { batch: 2, length: 1, heads: 1 }, size: 3, mask: 'none', scale: 1, seed: 5 },
    // A shared bias of small values with keys masked in the middle of rows.
    { name: 'bias with holes', shape: { batch: 2, length: 14, heads: 2 }, size: 6, mask: 'holes', scale: 2, seed: 6 },
  ];

  it.each(cases)("gives the tfjs ops' values and autodiff gradient: $name", async (c) => {
    const given = inputs(c);
    const fused = readOutputs(run(fusedAttention, given, c.shape));
    const reference = readOutputs(run(fusedAttentionOps, given, c.shape));
    // Values: the same up to rounding (the kernel's exp is not XNNPACK's, and it adds in its own
    // order); a context near 0 is a sum of terms of both signs, hence the absolute floor.
    expectClose(fused[0]!, reference[0]!, 1e-6, 1e-6 * largestMagnitude(reference[0]!));
    expectClose(fused[1]!, reference[1]!, 0, 1e-5 * largestMagnitude(reference[1]!));
    if (c.scale >= 8) expect(largestMagnitude(reference[0]!)).toBeGreaterThan(1);
    // And within 1e-5 of the largest of the same sums in doubles, straight from the definition
    // (a row that masks every key is a float artefact, uniform over keys: only the float routes agree on it).
    if (c.mask !== 'left-padded') {
      const truth = float64Attention(given.qkv.dataSync(), given.dy.dataSync(), c);
      for (const index of [0, 1]) expectClose(fused[index]!, truth[index]!, 0, 1e-5 * largestMagnitude(truth[index]!));
    }
    const names = await kernelNames(() => run(fusedAttention, given, c.shape));
    expect(names).toEqual(expect.arrayContaining([FUSED_ATTENTION_KERNEL, FUSED_ATTENTION_GRAD_KERNEL]));
    expect(names).not.toContain('Softmax');
    expect(names).not.toContain('BatchMatMul');
    tf.dispose([given.qkv, given.dy, ...(given.bias ? [given.bias] : [])]);
  });

  it('gives masked keys no weight and fully masked rows what the ops give', () => {
    const c = cases[2]!;
    const given = inputs(c);
    const [value] = readOutputs([fusedAttention(given.qkv, given.bias, c.shape)]);
    // Change every value of the keys sequence 3 masks (its 6 padding positions): no real row moves.
    const { batch, length, heads } = c.shape;
    const d = heads * c.size;
    const changed = given.qkv.arraySync();
    for (let i = 0; i < 6; i++) for (let p = 2 * d; p < 3 * d; p++) changed[3 * length + i]![p] = 100;
    const moved = tf.tensor2d(changed);
    const [after] = readOutputs([fusedAttention(moved, given.bias, c.shape)]);
    const [reference] = readOutputs([fusedAttentionOps(moved, given.bias, c.shape)]);
    for (let i = 6; i < length; i++) {
      const row = (3 * length + i) * d;
      expect(Array.from(after!.subarray(row, row + d))).toEqual(Array.from(value!.subarray(row, row + d)));
    }
    // The padding rows themselves average every key, 100s included, as the ops do.
    expect(after![3 * length * d + 2 * c.size]).toBeGreaterThan(10);
    expectClose(after!, reference!, 1e-6, 1e-6 * largestMagnitude(reference!));
    expect(batch).toBe(4);
    tf.dispose([given.qkv, given.dy, given.bias!, moved]);
  });

  it('runs the tfjs ops when the SIMD kernels are off, the kernels unregistered or the bias per head', async () => {
    const c = cases[0]!;
    const given = inputs(c);
    const fused = readOutputs(run(fusedAttention, given, c.shape));
    setSimdKernelsEnabled(false);
    const names = await kernelNames(() => run(fusedAttention, given, c.shape));
    expect(names).toEqual(expect.arrayContaining(['Softmax', 'BatchMatMul']));
    expect(names).not.toContain(FUSED_ATTENTION_KERNEL);
    const off = readOutputs(run(fusedAttention, given, c.shape));
    setSimdKernelsEnabled(true);
    expectClose(fused[0]!, off[0]!, 1e-6, 1e-6 * largestMagnitude(off[0]!));
    tf.unregisterKernel(FUSED_ATTENTION_KERNEL, 'wasm');
    try {
      expect(await kernelNames(() => fusedAttention(given.qkv, given.bias, c.shape))).not.toContain(FUSED_ATTENTION_KERNEL);
    } finally {
      tf.registerKernel(fusedAttentionConfig);
    }
    const perHead = tf.tile(tf.reshape(given.bias!, [1, 1, 37, 37]), [2, 4, 1, 1]);
    expect(await kernelNames(() => fusedAttention(given.qkv, perHead, c.shape))).not.toContain(FUSED_ATTENTION_KERNEL);
    tf.dispose([given.qkv, given.dy, given.bias!, perHead]);
  });

  it('passes no gradient to the bias (a mask): asking for one is an error', () => {
    const c = cases[0]!;
    const given = inputs(c);
    expect(() => tf.grad((bias: tf.Tensor) => tf.sum(fusedAttention(given.qkv, bias, c.shape)))(given.bias!)).toThrow('Cannot compute gradient of y=f(x) with respect to x');
    tf.dispose([given.qkv, given.dy, given.bias!]);
  });

  it('says which shape it expected', () => {
    const qkv = tf.zeros([6, 12]) as tf.Tensor2D;
    expect(() => fusedAttention(qkv, undefined, { batch: 2, length: 3, heads: 0 })).toThrow('fusedAttention: batch, length and heads must be positive integers; got 2, 3, 0');
    expect(() => fusedAttention(qkv, undefined, { batch: 3, length: 3, heads: 2 })).toThrow('fusedAttention: qkv must be [batch·length, 3·heads·size] = [9, a positive multiple of 6]; got [6, 12]');
    expect(() => fusedAttention(qkv, undefined, { batch: 2, length: 3, heads: 3 })).toThrow('qkv must be [batch·length, 3·heads·size] = [6, a positive multiple of 9]; got [6, 12]');
    expect(() => fusedAttention(qkv, tf.zeros([3, 4]), { batch: 2, length: 3, heads: 2 })).toThrow(
      'fusedAttention: bias must end in [3, 3] (queries, keys) and broadcast to [2, 2, 3, 3]; got [3, 4]',
    );
    tf.dispose(qkv);
  });

  it('does not leak tensors, data or heap', () => {
    const c = cases[2]!;
    const given = inputs(c);
    expectNoLeak(() => run(fusedAttention, given, c.shape));
    tf.dispose([given.qkv, given.dy, given.bias!]);
  });
});
