// Test helpers: run the same computation on wasm (with the fixes) and on the pure-JS cpu
// backend, and compare.
import { expect } from 'vitest';
import { initTensor, tf } from '../src/index.js';

export async function initWasm(): Promise<void> {
  await initTensor({ backend: 'wasm' });
  // Not IS_TEST: its per-kernel leak check misfires on customGrad ops (softmaxCrossEntropy,
  // logSoftmax) on every backend in tfjs 4.22. The leak tests below count data ids instead.
  await tf.setBackend('wasm');
}

/** Deterministic uniform values in [-1, 1). */
export function randomValues(size: number, seed: number): Float32Array {
  let state = seed >>> 0;
  const values = new Float32Array(size);
  for (let index = 0; index < size; index++) {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    values[index] = (((t ^ (t >>> 14)) >>> 0) / 4294967296) * 2 - 1;
  }
  return values;
}

export function randomTensor(shape: number[], seed: number): tf.Tensor {
  return tf.tensor(randomValues(shape.reduce((a, b) => a * b, 1), seed), shape);
}

/** Runs fn on one backend and reads its outputs back. */
export async function onBackend(name: 'wasm' | 'cpu', fn: () => tf.Tensor[]): Promise<Float32Array[]> {
  await tf.setBackend(name);
  const outputs = tf.tidy(fn);
  const values = outputs.map((output) => Float32Array.from(output.dataSync()));
  tf.dispose(outputs);
  await tf.setBackend('wasm');
  return values;
}

export function expectClose(actual: ArrayLike<number>, expected: ArrayLike<number>, relative = 1e-4, absolute = 1e-5): void {
  expect(actual.length).toBe(expected.length);
  let worst = 0;
  let worstIndex = -1;
  for (let index = 0; index < actual.length; index++) {
    const a = actual[index] ?? NaN;
    const e = expected[index] ?? NaN;
    const excess = Math.abs(a - e) - (absolute + relative * Math.abs(e));
    if (!(excess <= worst)) {
      worst = Number.isNaN(excess) ? Infinity : excess;
      worstIndex = index;
    }
  }
  if (worstIndex >= 0) {
    expect.fail(`index ${worstIndex}: wasm ${actual[worstIndex]} vs cpu ${expected[worstIndex]}`);
  }
}

/** The same outputs on wasm and cpu, within tolerance. */
export async function expectSameOnBackends(fn: () => tf.Tensor[], relative = 1e-4, absolute = 1e-5): Promise<void> {
  const wasm = await onBackend('wasm', fn);
  const cpu = await onBackend('cpu', fn);
  expect(wasm.length).toBe(cpu.length);
  wasm.forEach((values, index) => expectClose(values, cpu[index] ?? new Float32Array(), relative, absolute));
}

interface WasmInternals {
  numDataIds(): number;
  wasm: { HEAPU8: Uint8Array };
}

/** Runs fn many times on wasm; tensors, backend data ids and heap size must not grow. */
export function expectNoLeak(fn: () => tf.Tensor[], runs = 30): void {
  const backend = tf.backend() as unknown as WasmInternals;
  const once = (): void => tf.dispose(tf.tidy(fn));
  once();
  once();
  const tensors = tf.memory().numTensors;
  const dataIds = backend.numDataIds();
  const heap = backend.wasm.HEAPU8.buffer.byteLength;
  for (let run = 0; run < runs; run++) once();
  expect(tf.memory().numTensors).toBe(tensors);
  expect(backend.numDataIds()).toBe(dataIds);
  expect(backend.wasm.HEAPU8.buffer.byteLength).toBe(heap);
}

/** The outputs' values, read back; the outputs are disposed. */
export function readOutputs(outputs: tf.Tensor[]): Float32Array[] {
  const values = outputs.map((output) => Float32Array.from(output.dataSync()));
  tf.dispose(outputs);
  return values;
}

/** The names of the kernels fn runs (each once), its results disposed. */
export async function kernelNames(fn: () => tf.Tensor | tf.Tensor[]): Promise<string[]> {
  const info = await tf.profile(() => fn());
  tf.dispose(info.result as tf.Tensor[]);
  return [...new Set(info.kernels.map((kernel) => kernel.name))];
}

/** The largest |value|. */
export function largestMagnitude(values: ArrayLike<number>): number {
  return Array.from(values).reduce((top, value) => Math.max(top, Math.abs(value)), 0);
}

/**
 * Indices whose float32 bit patterns differ, for kernels that must agree bit for bit (a NaN counts
 * as equal to any NaN: its payload is not the kernels' to agree on).
 */
export function differingBitPatterns(actual: Float32Array, expected: Float32Array): number[] {
  expect(actual.length).toBe(expected.length);
  const x = new Uint32Array(actual.buffer, actual.byteOffset, actual.length);
  const y = new Uint32Array(expected.buffer, expected.byteOffset, expected.length);
  const out: number[] = [];
  for (let i = 0; i < y.length; i++) if (x[i] !== y[i] && !(Number.isNaN(actual[i]) && Number.isNaN(expected[i]))) out.push(i);
  return out;
}
