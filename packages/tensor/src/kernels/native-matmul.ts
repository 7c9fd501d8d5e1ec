import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { WasmBackend } from './wasm-backend.js';
import type { SimdProduct } from './simd-kernels.js';

/**
 * Saccade's opt-in native product (native/matmul.cc): an N-API addon compiled with g++ -O3
 * -march=native when the package builds (scripts/build-native.mjs, into dist/matmul.node), with a
 * register-blocked AVX-512 FMA kernel (AVX2 FMA or scalar on other machines). It computes the same
 * products as the SIMD kernel's `batchMatMul` in place on the wasm backend's heap: the heap is an
 * ordinary ArrayBuffer, taken fresh on every call because it is replaced when the memory grows.
 *
 * Off by default: loaded only when `SACCADE_NATIVE_MATMUL=1` (read once per thread; worker threads
 * inherit the environment, and each loads the addon for itself). Then every float32 product that
 * BatchMatMul's fast path takes runs on it; without the addon, or with the variable unset, the
 * products run exactly as before (XNNPACK and the SIMD kernel).
 */
export const nativeMatMulFile = 'matmul.node';

type NativeBatchMatMul = (
  heap: ArrayBuffer,
  a: number,
  b: number,
  c: number,
  batch: number,
  m: number,
  k: number,
  n: number,
  transposeA: boolean,
  transposeB: boolean,
  strideA: number,
  strideB: number,
) => void;

interface NativeAddon {
  batchMatMul: NativeBatchMatMul;
  isa: string;
}

const requireFromHere = createRequire(import.meta.url);
let enabled = process.env.SACCADE_NATIVE_MATMUL === '1';
let addon: NativeAddon | null | undefined;
let loadError: string | undefined;

/** Where the build puts the addon: `<@saccade/tensor>/dist/matmul.node`. */
export function nativeMatMulPath(): string {
  const root = path.dirname(requireFromHere.resolve('@saccade/tensor/package.json'));
  return path.join(root, 'dist', nativeMatMulFile);
}

/**
 * Turns the native product on or off for this thread, overriding SACCADE_NATIVE_MATMUL: only to
 * measure or compare (the tests run both routes in one process).
 */
export function setNativeMatMulEnabled(value: boolean): void {
  enabled = value;
}

function loaded(): NativeAddon | undefined {
  if (!enabled) return undefined;
  if (addon !== undefined) return addon ?? undefined;
  addon = null;
  try {
    const file = nativeMatMulPath();
    if (!existsSync(file)) throw new Error(`${file} is missing: build @saccade/tensor (needs g++ and Node's headers)`);
    const module = requireFromHere(file) as Partial<NativeAddon>;
    if (typeof module.batchMatMul !== 'function') throw new Error(`${file} does not export batchMatMul`);
    addon = module as NativeAddon;
  } catch (error) {
    loadError = error instanceof Error ? error.message : String(error);
  }
  return addon ?? undefined;
}

/**
 * Whether the native product is in use on this thread, and why not if not; `isa` is the
 * instruction set it was compiled for (avx512f, avx2-fma or scalar).
 */
export function nativeMatMulStatus(): { available: boolean; reason?: string; isa?: string } {
  if (!enabled) return { available: false, reason: 'off: set SACCADE_NATIVE_MATMUL=1 to use it' };
  const native = loaded();
  return native ? { available: true, isa: native.isa } : { available: false, reason: loadError ?? 'unavailable' };
}

/** Whether BatchMatMul should take the native route (enabled and loaded on this thread). */
export function nativeMatMulEnabled(): boolean {
  return loaded() !== undefined;
}

/**
 * Runs the product on the backend's heap with the native kernel; false (nothing written) when it
 * is off or not loaded. Take the addresses after every allocation (the heap may grow).
 */
export function runNativeBatchMatMul(backend: WasmBackend, product: SimdProduct): boolean {
  const native = loaded();
  if (!native) return false;
  native.batchMatMul(
    backend.wasm.HEAPU8.buffer as ArrayBuffer,
    product.a,
    product.b,
    product.c,
    product.batch,
    product.m,
    product.k,
    product.n,
    product.transposeA,
    product.transposeB,
    product.aBatchStride,
    product.bBatchStride,
  );
  return true;
}
