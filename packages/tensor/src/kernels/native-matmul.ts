import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { WasmBackend } from './wasm-backend.js';
import type { SimdAttention, SimdProduct } from './simd-kernels.js';

/**
 * Saccade's native product (native/matmul.cc): an N-API addon compiled with g++ when the package
 * builds (scripts/build-native.mjs, into dist/matmul.node), with register-blocked AVX-512, AVX2
 * and portable kernels chosen when it loads, by what the CPU supports. It computes the products
 * of the SIMD kernel's `batchMatMul` in place on the wasm backend's heap (an ordinary
 * ArrayBuffer, taken fresh on every call because it is replaced when the memory grows) and, in
 * its default exact mode, gives the wasm route's floats bit for bit: each output is the sum of
 * its products in order of depth, every product and sum rounded to float32, as the SIMD kernel
 * and XNNPACK's wasm kernels add them. So taking the native route changes how fast a run goes,
 * never what it computes.
 *
 * On wherever the addon was built. `SACCADE_NATIVE_MATMUL` (read once per thread; worker threads
 * inherit the environment and each loads the addon for itself): unset, `1` or `exact` — on, exact;
 * `fused` — on, one fused multiply-add a step (faster, the same floats on every instruction set,
 * but not the wasm route's); `0` or `off` — off: every product on XNNPACK and the SIMD kernel.
 * Without the addon (no g++ where the package was built) the products run on the wasm route.
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

/** The addon's instruction sets, best first. */
export type NativeMatMulIsa = 'avx512f' | 'avx2' | 'portable';

interface NativeSettings {
  isa: NativeMatMulIsa;
  fused: boolean;
  /** What this CPU supports, best first. */
  isas: NativeMatMulIsa[];
}

interface NativeAddon {
  batchMatMul: NativeBatchMatMul;
  /** native/gelu.cc: the SIMD kernel's gelu and geluGrad, bit for bit. */
  gelu(heap: ArrayBuffer, x: number, out: number, size: number): void;
  geluGrad(heap: ArrayBuffer, x: number, dy: number, out: number, size: number): void;
  /** native/attention.cc: the SIMD kernel's attention and attentionGrad, bit for bit; false on the portable instruction set. */
  attention(heap: ArrayBuffer, qkv: number, bias: number, out: number, stats: number, batch: number, length: number, heads: number, size: number, biasStride: number, scale: number): boolean;
  attentionGrad(
    heap: ArrayBuffer,
    qkv: number,
    bias: number,
    dy: number,
    stats: number,
    dqkv: number,
    batch: number,
    length: number,
    heads: number,
    size: number,
    biasStride: number,
    scale: number,
  ): boolean;
  configure(isa: string | undefined, fused: boolean): string;
  settings(): NativeSettings;
}

type Mode = 'off' | 'exact' | 'fused';

/** The mode SACCADE_NATIVE_MATMUL asks for; a value it does not know is an error, not "off". */
export function nativeMatMulMode(value: string | undefined): Mode {
  if (value === undefined || value === '' || value === '1' || value === 'exact') return 'exact';
  if (value === '0' || value === 'off') return 'off';
  if (value === 'fused') return 'fused';
  throw new Error(`SACCADE_NATIVE_MATMUL must be 1, exact, fused, 0 or off (unset: exact); got ${JSON.stringify(value)}`);
}

const requireFromHere = createRequire(import.meta.url);
const mode = nativeMatMulMode(process.env.SACCADE_NATIVE_MATMUL);
let enabled = mode !== 'off';
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

function load(): NativeAddon | undefined {
  if (addon !== undefined) return addon ?? undefined;
  addon = null;
  try {
    const file = nativeMatMulPath();
    if (!existsSync(file)) throw new Error(`${file} is missing: build @saccade/tensor with g++ and Node's headers to get it`);
    const module = requireFromHere(file) as Partial<NativeAddon>;
    if (typeof module.batchMatMul !== 'function' || typeof module.configure !== 'function' || typeof module.attention !== 'function') {
      throw new Error(`${file} is from an older build (no configure or attention): rebuild @saccade/tensor`);
    }
    module.configure(undefined, mode === 'fused');
    addon = module as NativeAddon;
  } catch (error) {
    loadError = error instanceof Error ? error.message : String(error);
  }
  return addon ?? undefined;
}

function loaded(): NativeAddon | undefined {
  return enabled ? load() : undefined;
}

/**
 * This thread's instruction set (one the CPU supports; the best when omitted) and mode: only to
 * measure or compare kernels. Throws when the addon is missing or the CPU lacks the set.
 */
export function setNativeMatMulOptions(options: { isa?: NativeMatMulIsa; fused?: boolean }): void {
  const native = load();
  if (!native) throw new Error(`the native product is not available: ${loadError ?? 'unknown reason'}`);
  native.configure(options.isa, options.fused ?? false);
}

/**
 * Whether the native product is in use on this thread, and why not if not; `isa` is the
 * instruction set its kernels run with, `fused` whether it is in fused mode, `isas` what this CPU
 * supports.
 */
export function nativeMatMulStatus(): { available: boolean; reason?: string } & Partial<NativeSettings> {
  if (!enabled) return { available: false, reason: 'off: SACCADE_NATIVE_MATMUL=0 or setNativeMatMulEnabled(false)' };
  const native = loaded();
  return native ? { available: true, ...native.settings() } : { available: false, reason: loadError ?? 'unavailable' };
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

/** GELU of `size` float32 at heap offsets with the native kernel; false when it is off or not loaded. */
export function runNativeGelu(backend: WasmBackend, x: number, out: number, size: number): boolean {
  const native = loaded();
  if (!native) return false;
  native.gelu(backend.wasm.HEAPU8.buffer as ArrayBuffer, x, out, size);
  return true;
}

/** dy·GELU'(x) of `size` float32 at heap offsets with the native kernel; false when it is off or not loaded. */
export function runNativeGeluGrad(backend: WasmBackend, x: number, dy: number, out: number, size: number): boolean {
  const native = loaded();
  if (!native) return false;
  native.geluGrad(backend.wasm.HEAPU8.buffer as ArrayBuffer, x, dy, out, size);
  return true;
}

/**
 * The fused attention on the native kernel (out written, stats too); false (nothing written) when
 * it is off, not loaded, or on the portable instruction set, where the SIMD kernel is faster.
 */
export function runNativeAttention(backend: WasmBackend, attention: SimdAttention, out: number): boolean {
  const native = loaded();
  if (!native) return false;
  const { qkv, bias, stats, batch, length, heads, size, biasStride, scale } = attention;
  return native.attention(backend.wasm.HEAPU8.buffer as ArrayBuffer, qkv, bias ?? -1, out, stats, batch, length, heads, size, biasStride, scale);
}

/** The fused attention's gradient on the native kernel (dqkv written); false as runNativeAttention. */
export function runNativeAttentionGrad(backend: WasmBackend, attention: SimdAttention, at: { dy: number; dqkv: number }): boolean {
  const native = loaded();
  if (!native) return false;
  const { qkv, bias, stats, batch, length, heads, size, biasStride, scale } = attention;
  return native.attentionGrad(backend.wasm.HEAPU8.buffer as ArrayBuffer, qkv, bias ?? -1, at.dy, stats, at.dqkv, batch, length, heads, size, biasStride, scale);
}

/**
 * One line for logs: which route this thread's products take on the wasm backend, e.g.
 * "products native (avx512f, exact)" or "products on wasm (<why the native product is not in use>)".
 */
export function describeNativeMatMul(): string {
  const status = nativeMatMulStatus();
  if (!status.available) return `products on wasm (${status.reason ?? 'the native product is unavailable'})`;
  return `products native (${status.isa ?? '?'}, ${status.fused ? 'fused' : 'exact'})`;
}
