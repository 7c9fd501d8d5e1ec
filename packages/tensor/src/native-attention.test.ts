import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { buildNative } from '../scripts/build-native.mjs';
import { fusedAttention, tf } from './index.js';
import { inputs, type Case } from '../test/attention-cases.js';
import { differingBitPatterns, expectNoLeak, initWasm } from '../test/compare-backends.js';
import { nativeMatMulMode, nativeMatMulPath, nativeMatMulStatus, setNativeMatMulEnabled, setNativeMatMulOptions, type NativeMatMulIsa } from './kernels/native-matmul.js';

// The addon is optional (see native-matmul.test.ts): skipped, with the reason, where it cannot be built.
const build = buildNative({ onlyIfStale: true });
const skipReason = build.built ? '' : ` (skipped: ${build.reason})`;

/** The attention and the gradient of Σ dy·attention for qkv, read back, on the native route (an instruction set) or off it. */
function run(c: Case, qkv: tf.Tensor2D, dy: tf.Tensor, bias: tf.Tensor | undefined, native: false | NativeMatMulIsa): Float32Array[] {
  setNativeMatMulEnabled(native !== false);
  if (native) setNativeMatMulOptions({ isa: native });
  const results = tf.tidy(() => [
    fusedAttention(qkv, bias, c.shape),
    tf.grad((x: tf.Tensor) => tf.sum(tf.mul(fusedAttention(x as tf.Tensor2D, bias, c.shape), dy)))(qkv),
  ]);
  const values = results.map((result) => Float32Array.from(result.dataSync()));
  tf.dispose(results);
  setNativeMatMulOptions({});
  return values;
}

const cases: Case[] = [
  // The small preset's decoder at the bench's length (148: 16-lane tails of 4) and its image encoder (no mask).
  { name: "the default model's decoder", shape: { batch: 2, length: 148, heads: 4 }, size: 32, mask: 'causal', scale: 1, seed: 1 },
  { name: "the default model's encoder", shape: { batch: 2, length: 64, heads: 4 }, size: 32, mask: 'none', scale: 1, seed: 2 },
  { name: 'causal, odd length, scores in the hundreds', shape: { batch: 2, length: 37, heads: 2 }, size: 16, mask: 'causal', scale: 8, seed: 3 },
  { name: 'causal and left padding', shape: { batch: 4, length: 11, heads: 2 }, size: 8, mask: 'left-padded', scale: 1, seed: 4 },
  { name: 'no mask, heads of 5', shape: { batch: 3, length: 9, heads: 3 }, size: 5, mask: 'none', scale: 1, seed: 5 },
  { name: 'no mask, one position', shape: { batch: 2, length: 1, heads: 1 }, size: 3, mask: 'none', scale: 1, seed: 6 },
  { name: 'bias with holes', shape: { batch: 2, length: 23, heads: 2 }, size: 6, mask: 'holes', scale: 2, seed: 7 },
];

describe.skipIf(!build.built)(`the native fused attention${skipReason}`, () => {
  let isas: NativeMatMulIsa[] = [];
  beforeAll(async () => {
    await initWasm();
    setNativeMatMulEnabled(true);
    isas = nativeMatMulStatus().isas ?? [];
  });
  afterAll(() => setNativeMatMulEnabled(nativeMatMulMode(process.env.SACCADE_NATIVE_MATMUL) !== 'off'));

  it.each(cases)("gives the SIMD kernel's bits, value and gradient, on every instruction set: $name", (c) => {
    const { qkv, dy, bias } = inputs(c);
    const reference = run(c, qkv, dy, bias, false);
    expect(isas.length).toBeGreaterThan(0);
    for (const isa of isas) {
      const native = run(c, qkv, dy, bias, isa);
      expect({ isa, value: differingBitPatterns(native[0]!, reference[0]!), gradient: differingBitPatterns(native[1]!, reference[1]!) }).toEqual({ isa, value: [], gradient: [] });
    }
    tf.dispose([qkv, dy, ...(bias ? [bias] : [])]);
  });

  it('runs on the addon on AVX2 and AVX-512 (the SIMD kernel on the portable set), and nothing is left allocated', () => {
    const addon = createRequire(import.meta.url)(nativeMatMulPath()) as Record<'attention' | 'attentionGrad', (...args: unknown[]) => boolean>;
    const taken = { attention: [] as boolean[], attentionGrad: [] as boolean[] };
    const originals = { attention: addon.attention, attentionGrad: addon.attentionGrad };
    for (const name of ['attention', 'attentionGrad'] as const) {
      addon[name] = (...args: unknown[]) => {
        const result = originals[name](...args);
        taken[name].push(result);
        return result;
      };
    }
    try {
      const c = cases[3]!;
      const { qkv, dy, bias } = inputs(c);
      run(c, qkv, dy, bias, false);
      expect(taken).toEqual({ attention: [], attentionGrad: [] });
      for (const isa of isas) run(c, qkv, dy, bias, isa);
      // Forward twice (the value, then under the gradient), backward once, per instruction set.
      const expected = isas.flatMap((isa) => (isa === 'portable' ? [false, false] : [true, true]));
      expect(taken.attention).toEqual(expected);
      expect(taken.attentionGrad).toEqual(isas.map((isa) => isa !== 'portable'));
      setNativeMatMulEnabled(true);
      expectNoLeak(() => [fusedAttention(qkv, bias, c.shape)]);
      tf.dispose([qkv, dy, ...(bias ? [bias] : [])]);
    } finally {
      addon.attention = originals.attention;
      addon.attentionGrad = originals.attentionGrad;
    }
  });

  it('refuses arrays outside the heap, unaligned offsets and missing arguments', () => {
    const addon = createRequire(import.meta.url)(nativeMatMulPath()) as { attention(...args: unknown[]): boolean };
    const heap = new ArrayBuffer(1024);
    // qkv [2, 3·4] at 0, out [2, 4] at 96, stats [1, 1, 2, 2] at 128: fits; a longer sequence does not.
    expect(addon.attention(heap, 0, -1, 96, 128, 1, 2, 1, 4, 0, 0.5)).toBe(true);
    expect(() => addon.attention(heap, 0, -1, 96, 128, 1, 40, 1, 4, 0, 0.5)).toThrow('attention: array outside the heap');
    expect(() => addon.attention(heap, 2, -1, 96, 128, 1, 2, 1, 4, 0, 0.5)).toThrow('attention: offsets must be 4-byte aligned');
    expect(() => addon.attention(heap, 0, -1, 96, 128, 1, 2, 1, -4, 0, 0.5)).toThrow('non-negative integers');
    expect(() => addon.attention(heap, 0, -1, 96)).toThrow('attention(heap, qkv, bias, out, stats, batch, length, heads, size, biasStride, scale): 11 arguments');
  });
});
