import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNative } from '../scripts/build-native.mjs';
import { tf } from './index.js';
import { expectNoLeak, initWasm, randomTensor } from '../test/compare-backends.js';
import { nativeMatMulPath, nativeMatMulStatus, setNativeMatMulEnabled } from './kernels/native-matmul.js';

// The addon is optional: built here when dist/ lacks it (or it is older than native/matmul.cc);
// without g++ or Node's headers the file is skipped, with the reason in the test name.
const build = buildNative({ onlyIfStale: true });
const skipReason = build.built ? '' : ` (skipped: ${build.reason})`;

/** max |x − y| / max |y|: the products are float32 sums in a different order (and with FMA). */
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

/** The outputs of fn, read back, on the native route and on today's route (XNNPACK and SIMD). */
function bothRoutes(fn: () => tf.Tensor[]): { native: Float32Array[]; wasm: Float32Array[] } {
  const run = (native: boolean): Float32Array[] => {
    setNativeMatMulEnabled(native);
    const outputs = tf.tidy(fn);
    const values = outputs.map((output) => Float32Array.from(output.dataSync()));
    tf.dispose(outputs);
    return values;
  };
  return { native: run(true), wasm: run(false) };
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
];

describe.skipIf(!build.built)(`the native BatchMatMul (SACCADE_NATIVE_MATMUL)${skipReason}`, () => {
  beforeAll(async () => {
    await initWasm();
    setNativeMatMulEnabled(true);
  });
  afterAll(() => setNativeMatMulEnabled(process.env.SACCADE_NATIVE_MATMUL === '1'));

  it('loads when enabled, takes the products, and is off by default', () => {
    const addon = createRequire(import.meta.url)(nativeMatMulPath()) as { stats(): { calls: number } };
    const product = (): void => {
      const c = tf.tidy(() => tf.matMul(tf.ones([5, 7]), tf.ones([7, 3])));
      c.dataSync();
      c.dispose();
    };
    setNativeMatMulEnabled(true);
    expect(nativeMatMulStatus()).toMatchObject({ available: true });
    let calls = addon.stats().calls;
    product();
    expect(addon.stats().calls).toBe(calls + 1);
    setNativeMatMulEnabled(false);
    calls = addon.stats().calls;
    product();
    expect(addon.stats().calls).toBe(calls);
    setNativeMatMulEnabled(false);
    expect(nativeMatMulStatus().available).toBe(false);
  });

  for (const [aShape, bShape, transposeA, transposeB] of cases) {
    it(`matMul ${JSON.stringify(aShape)} · ${JSON.stringify(bShape)}, transposeA ${transposeA}, transposeB ${transposeB}: same as the wasm route`, () => {
      const a = randomTensor(aShape, 3 + aShape.length);
      const b = randomTensor(bShape, 7 + bShape.length);
      const { native, wasm } = bothRoutes(() => [tf.matMul(a, b, transposeA, transposeB)]);
      expect(relativeDifference(native[0] ?? [], wasm[0] ?? [])).toBeLessThanOrEqual(1e-5);
      setNativeMatMulEnabled(true);
      expectNoLeak(() => [tf.matMul(a, b, transposeA, transposeB)], 5);
      tf.dispose([a, b]);
    });
  }

  it('gives the same gradients through tf.matMul', () => {
    const a = randomTensor([3, 45, 70], 11);
    const b = randomTensor([3, 70, 33], 12);
    const w = randomTensor([3, 45, 33], 13);
    const f = (x: tf.Tensor, y: tf.Tensor): tf.Tensor => tf.sum(tf.mul(tf.matMul(x, y), w));
    const { native, wasm } = bothRoutes(() => tf.grads(f)([a, b]));
    expect(native).toHaveLength(2);
    for (let i = 0; i < 2; i++) expect(relativeDifference(native[i] ?? [], wasm[i] ?? [])).toBeLessThanOrEqual(1e-5);
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
