import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { buildNative } from '../scripts/build-native.mjs';
import { gelu, tf } from './index.js';
import { differingBitPatterns, expectNoLeak, initWasm, randomTensor } from '../test/compare-backends.js';
import { nativeMatMulMode, nativeMatMulPath, nativeMatMulStatus, setNativeMatMulEnabled, setNativeMatMulOptions, type NativeMatMulIsa } from './kernels/native-matmul.js';

// The addon is optional (see native-matmul.test.ts): skipped, with the reason, where it cannot be built.
const build = buildNative({ onlyIfStale: true });
const skipReason = build.built ? '' : ` (skipped: ${build.reason})`;

/** GELU and its gradient (weighted, so dy is not all ones) of x, read back, on the native route (given settings) or off it. */
function run(x: tf.Tensor, weights: tf.Tensor, native: false | NativeMatMulIsa): Float32Array[] {
  setNativeMatMulEnabled(native !== false);
  if (native) setNativeMatMulOptions({ isa: native });
  const results = tf.tidy(() => [gelu(x), tf.grad((value: tf.Tensor) => tf.sum(tf.mul(gelu(value), weights)))(x)]);
  const values = results.map((result) => Float32Array.from(result.dataSync()));
  tf.dispose(results);
  setNativeMatMulOptions({});
  return values;
}

// Edges: zeros of both signs, tiny and huge magnitudes, the exp's clamps (u·−2 past ±87.3/88.3),
// infinities and NaN; the rest random. Lengths leave tails of every size for 16 and 8 lanes.
const edges = [0, -0, 1e-30, -1e-30, 1e-7, -1e-7, 0.5, -0.5, 3, -3, 10, -10, 30, -30, 60, -60, 1e4, -1e4, 3.4e38, -3.4e38, Infinity, -Infinity, NaN];

describe.skipIf(!build.built)(`the native GELU${skipReason}`, () => {
  let isas: NativeMatMulIsa[] = [];
  beforeAll(async () => {
    await initWasm();
    setNativeMatMulEnabled(true);
    isas = nativeMatMulStatus().isas ?? [];
  });
  afterAll(() => setNativeMatMulEnabled(nativeMatMulMode(process.env.SACCADE_NATIVE_MATMUL) !== 'off'));

  for (const length of [1, 7, 15, 16, 17, 23, 1000, 4096 + 13]) {
    it(`gives the SIMD kernel's bits, forward and gradient, on every instruction set (${length} values)`, () => {
      const random = randomTensor([length], length);
      const values = Float32Array.from(random.dataSync(), (value, i) => (i < edges.length && length > 100 ? edges[i]! : value * 8));
      const x = tf.tensor1d(values);
      const weights = randomTensor([length], length + 1);
      const reference = run(x, weights, false);
      expect(isas.length).toBeGreaterThan(0);
      for (const isa of isas) {
        const native = run(x, weights, isa);
        expect({ isa, forward: differingBitPatterns(native[0]!, reference[0]!), gradient: differingBitPatterns(native[1]!, reference[1]!) }).toEqual({ isa, forward: [], gradient: [] });
      }
      tf.dispose([random, x, weights]);
    });
  }

  it('runs on the addon when on, not when off, and nothing is left allocated', async () => {
    // The addon module is the one the kernel calls (Node caches it per thread): count its calls.
    const addon = createRequire(import.meta.url)(nativeMatMulPath()) as Record<'gelu' | 'geluGrad', (...args: unknown[]) => void>;
    const calls = { gelu: 0, geluGrad: 0 };
    for (const name of ['gelu', 'geluGrad'] as const) {
      const original = addon[name];
      addon[name] = (...args: unknown[]) => {
        calls[name]++;
        original(...args);
      };
    }
    const x = randomTensor([64, 33], 5);
    run(x, x, false);
    expect(calls).toEqual({ gelu: 0, geluGrad: 0 });
    run(x, x, isas[0]!);
    expect(calls).toEqual({ gelu: 2, geluGrad: 1 });
    setNativeMatMulEnabled(true);
    // A NaN in the output would show a kernel reading outside its array (the tail's mask).
    const values = run(x, tf.onesLike(x), isas[0]!);
    expect(values.every((array) => array.every(Number.isFinite))).toBe(true);
    await expectNoLeak(() => [gelu(x)]);
    x.dispose();
  });

  it('refuses arrays outside the heap and unaligned offsets', () => {
    const addon = createRequire(import.meta.url)(nativeMatMulPath()) as { gelu(heap: ArrayBuffer, x: number, out: number, size: number): void; geluGrad(heap: ArrayBuffer, x: number, dy: number, out: number, size: number): void };
    const heap = new ArrayBuffer(64);
    expect(() => addon.gelu(heap, 0, 32, 16)).toThrow('gelu: array outside the heap');
    expect(() => addon.gelu(heap, 2, 32, 4)).toThrow('gelu: offsets must be 4-byte aligned');
    expect(() => addon.geluGrad(heap, 0, -4, 16, 2)).toThrow('gelu: offsets and size must be non-negative integers');
    expect(() => (addon.gelu as (...args: unknown[]) => void)(heap, 0, 16)).toThrow('gelu(heap, x, out, size): 4 arguments');
    const floats = new Float32Array(heap);
    floats.set([1, -1, 0.5, 2]);
    addon.gelu(heap, 0, 16, 4);
    expect(Array.from(floats.subarray(4, 8)).map((v) => Number(v.toFixed(6)))).toEqual([0.841192, -0.158808, 0.345714, 1.954598]);
  });
});
