import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNative } from '../scripts/build-native.mjs';
import { tf } from './index.js';
import { expectNoLeak, initWasm, randomTensor } from '../test/compare-backends.js';
import {
  describeNativeMatMul,
  nativeMatMulMode,
  nativeMatMulPath,
  nativeMatMulStatus,
  setNativeMatMulEnabled,
  setNativeMatMulOptions,
  type NativeMatMulIsa,
} from './kernels/native-matmul.js';

// The addon is optional: built here when dist/ lacks it (or it is older than native/matmul.cc);
// without g++ or Node's headers the file is skipped, with the reason in the test name.
const build = buildNative({ onlyIfStale: true });
const skipReason = build.built ? '' : ` (skipped: ${build.reason})`;

/** How many elements differ, compared as float32 bit patterns (NaN and signed zero included). */
function differingBits(actual: Float32Array, expected: Float32Array): number {
  expect(actual.length).toBe(expected.length);
  const x = new Uint32Array(actual.buffer, actual.byteOffset, actual.length);
  const y = new Uint32Array(expected.buffer, expected.byteOffset, expected.length);
  let count = 0;
  for (let i = 0; i < y.length; i++) if (x[i] !== y[i]) count++;
  return count;
}

/** max |x − y| / max |y|. */
function relativeDifference(actual: ArrayLike<number>, expected: ArrayLike<number>): number {
  expect(actual.length).toBe(expected.length);
  let difference = 0;
  let scale = 0;
  for (let i = 0; i < expected.length; i++) {
    const x = actual[i] ?? NaN;
    const y = expected[i] ?? NaN;
    if (!Number.isFinite(x)) return Infinity;
    difference = Math.max(difference, Math.abs(x - y));
    scale = Math.max(scale, Math.abs(y));
  }
  return difference / (scale || 1);
}

/** The outputs of fn, read back, with the native product off or in the given settings. */
function outputs(fn: () => tf.Tensor[], native: false | { isa?: NativeMatMulIsa; fused?: boolean }): Float32Array[] {
  setNativeMatMulEnabled(native !== false);
  if (native) setNativeMatMulOptions(native);
  const results = tf.tidy(fn);
  const values = results.map((output) => Float32Array.from(output.dataSync()));
  tf.dispose(results);
  setNativeMatMulOptions({});
  return values;
}

// [a shape, b shape, transposeA, transposeB]
const cases: Array<[number[], number[], boolean, boolean]> = [
  [[37, 53], [53, 29], false, false],
  [[1, 128], [128, 384], false, false],
  [[4800, 128], [128, 512], false, false],
  [[300, 70], [300, 45], true, false],
  [[37, 53], [29, 53], false, true],
  [[53, 37], [29, 53], true, true],
  [[4, 31, 17], [4, 17, 23], false, false],
  [[4, 17, 31], [4, 23, 17], true, true],
  [[1, 31, 17], [4, 17, 23], false, false],
  [[4, 31, 17], [1, 23, 17], false, true],
  [[4, 17, 31], [17, 23], true, false],
  // Depths past one depth block (256), plain and transposed: the running sum carries across blocks.
  [[9, 1000], [1000, 7], false, false],
  [[700, 33], [700, 41], true, false],
];

describe.skipIf(!build.built)(`the native BatchMatMul (SACCADE_NATIVE_MATMUL)${skipReason}`, () => {
  beforeAll(async () => {
    await initWasm();
    setNativeMatMulEnabled(true);
    cpuIsas = nativeMatMulStatus().isas ?? [];
  });
  afterAll(() => setNativeMatMulEnabled(nativeMatMulMode(process.env.SACCADE_NATIVE_MATMUL) !== 'off'));

  // Every instruction set this CPU has: AVX-512, AVX2 and the portable kernel on an AVX-512 machine.
  let cpuIsas: NativeMatMulIsa[] = [];
  const isas = (): NativeMatMulIsa[] => cpuIsas;

  it('is on by default, takes the products, and turns off', () => {
    const addon = createRequire(import.meta.url)(nativeMatMulPath()) as { stats(): { calls: number } };
    const product = (): void => {
      const c = tf.tidy(() => tf.matMul(tf.ones([5, 7]), tf.ones([7, 3])));
      c.dataSync();
      c.dispose();
    };
    expect(nativeMatMulMode(undefined)).toBe('exact');
    setNativeMatMulEnabled(true);
    expect(nativeMatMulStatus()).toMatchObject({ available: true, fused: false });
    expect(isas()).toContain('portable');
    let calls = addon.stats().calls;
    product();
    expect(addon.stats().calls).toBe(calls + 1);
    setNativeMatMulEnabled(false);
    calls = addon.stats().calls;
    product();
    expect(addon.stats().calls).toBe(calls);
    expect(nativeMatMulStatus().available).toBe(false);
  });

  it('reads SACCADE_NATIVE_MATMUL and refuses a value it does not know', () => {
    expect(nativeMatMulMode('1')).toBe('exact');
    expect(nativeMatMulMode('exact')).toBe('exact');
    expect(nativeMatMulMode('fused')).toBe('fused');
    expect(nativeMatMulMode('0')).toBe('off');
    expect(nativeMatMulMode('off')).toBe('off');
    expect(() => nativeMatMulMode('yes')).toThrow('SACCADE_NATIVE_MATMUL must be 1, exact, fused, 0 or off (unset: exact); got "yes"');
  });

  it('says in one line which route the products take', () => {
    setNativeMatMulEnabled(true);
    setNativeMatMulOptions({ isa: 'portable' });
    expect(describeNativeMatMul()).toBe('products native (portable, exact)');
    setNativeMatMulOptions({ isa: 'portable', fused: true });
    expect(describeNativeMatMul()).toBe('products native (portable, fused)');
    setNativeMatMulOptions({});
    setNativeMatMulEnabled(false);
    expect(describeNativeMatMul()).toBe('products on wasm (off: SACCADE_NATIVE_MATMUL=0 or setNativeMatMulEnabled(false))');
    setNativeMatMulEnabled(true);
  });

  it('refuses an instruction set it does not know', () => {
    setNativeMatMulEnabled(true);
    expect(() => setNativeMatMulOptions({ isa: 'sse9' as NativeMatMulIsa })).toThrow('instruction set must be avx512f, avx2 or portable');
    expect(nativeMatMulStatus()).toMatchObject({ available: true, isa: isas()[0], fused: false });
  });

  for (const [aShape, bShape, transposeA, transposeB] of cases) {
    it(`matMul ${JSON.stringify(aShape)} · ${JSON.stringify(bShape)}, transposeA ${transposeA}, transposeB ${transposeB}: the wasm route's floats on every instruction set`, () => {
      const a = randomTensor(aShape, 3 + aShape.length);
      const b = randomTensor(bShape, 7 + bShape.length);
      const fn = (): tf.Tensor[] => [tf.matMul(a, b, transposeA, transposeB)];
      const wasm = outputs(fn, false)[0] ?? new Float32Array();
      const fused: Float32Array[] = [];
      expect(isas().length).toBeGreaterThan(0);
      for (const isa of isas()) {
        expect(differingBits(outputs(fn, { isa })[0] ?? new Float32Array(), wasm), isa).toBe(0);
        fused.push(outputs(fn, { isa, fused: true })[0] ?? new Float32Array());
      }
      // Fused: one rounding a step, so not the wasm route's floats, but the same on every set.
      expect(relativeDifference(fused[0] ?? [], wasm)).toBeLessThanOrEqual(1e-5);
      for (const other of fused.slice(1)) expect(differingBits(other, fused[0] ?? new Float32Array())).toBe(0);
      setNativeMatMulEnabled(true);
      expectNoLeak(fn, 5);
      tf.dispose([a, b]);
    });
  }

  it('gives the wasm route\'s gradients through tf.matMul, bit for bit', () => {
    const a = randomTensor([3, 45, 70], 11);
    const b = randomTensor([3, 70, 33], 12);
    const w = randomTensor([3, 45, 33], 13);
    const f = (x: tf.Tensor, y: tf.Tensor): tf.Tensor => tf.sum(tf.mul(tf.matMul(x, y), w));
    const wasm = outputs(() => tf.grads(f)([a, b]), false);
    const native = outputs(() => tf.grads(f)([a, b]), {});
    expect(native).toHaveLength(2);
    for (let i = 0; i < 2; i++) expect(differingBits(native[i] ?? new Float32Array(), wasm[i] ?? new Float32Array())).toBe(0);
    setNativeMatMulEnabled(true);
    expectNoLeak(() => tf.grads(f)([a, b]), 5);
    tf.dispose([a, b, w]);
  });

  it('loads and runs in a worker thread', async () => {
    const code = `
      const { parentPort, workerData } = require('node:worker_threads');
      const addon = require(workerData.file);
      const heap = new Float32Array(2 * 3 + 3 * 2 + 2 * 2);
      heap.set([1, 2, 3, 4, 5, 6, 1, 0, 0, 1, 1, 1]);
      addon.batchMatMul(heap.buffer, 0, 24, 48, 1, 2, 3, 2, false, false, 0, 0);
      parentPort.postMessage(Array.from(heap.subarray(12)));
    `;
    const worker = new Worker(code, { eval: true, workerData: { file: nativeMatMulPath() } });
    const result = await new Promise<number[]>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    expect(result).toEqual([4, 5, 10, 11]);
  });

  it('rejects an operand outside the heap', () => {
    const addon = createRequire(import.meta.url)(nativeMatMulPath()) as { batchMatMul: (...args: unknown[]) => void };
    const heap = new ArrayBuffer(64);
    expect(() => addon.batchMatMul(heap, 0, 0, 32, 1, 4, 4, 4, false, false, 0, 0)).toThrow(/outside the heap/);
  });
});
