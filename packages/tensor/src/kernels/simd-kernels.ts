import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { findBackend } from '@tensorflow/tfjs-core';
import type { WasmBackend } from './wasm-backend.js';

/**
 * Saccade's own SIMD kernels (assembly/simd-kernels.ts, AssemblyScript compiled to wasm by
 * `asc --enable simd` when the package builds, into dist/simd-kernels.wasm): batched products,
 * sums over leading axes, tanh, GELU and its gradient, Adam's update, broadcast add, subtract
 * and multiply, the pixel stem with smooth-max pooling and its gradient, fused multi-head
 * attention and its gradient, and layer norm and its gradient. The module is instantiated on
 * the wasm backend's own WebAssembly.Memory, so it reads the operands and writes the results in
 * place on the backend's heap: no copies. That is safe because the module has no data segment,
 * no start function and no global that lives in memory (checked here before instantiating): it
 * touches only the addresses it is handed, and never grows the memory.
 */
export const simdKernelsFile = 'simd-kernels.wasm';

type BatchMatMulExport = (
  a: number,
  b: number,
  c: number,
  batch: number,
  m: number,
  k: number,
  n: number,
  aBatchStride: number,
  bBatchStride: number,
  transposeA: number,
  transposeB: number,
  scratch: number,
) => void;

interface SimdExports {
  batchMatMul: BatchMatMulExport;
  sumRows(x: number, out: number, rows: number, cols: number): void;
  tanh(x: number, out: number, size: number): void;
  add: BinaryExport;
  sub: BinaryExport;
  mul: BinaryExport;
  gelu(x: number, out: number, size: number): void;
  geluGrad(x: number, dy: number, out: number, size: number): void;
  adam(...args: number[]): void;
  smoothMaxStem(pixels: number, weight: number, bias: number, out: number, count: number, side: number, pool: number, channels: number, beta: number, logPool: number): void;
  smoothMaxStemGrad(...args: number[]): void;
  attention(...args: number[]): void;
  attentionGrad(...args: number[]): void;
  decodeAttention(...args: number[]): void;
  layerNorm(x: number, gain: number, bias: number, out: number, mean: number, inverse: number, rows: number, d: number, epsilon: number): void;
  layerNormGrad(x: number, gain: number, mean: number, inverse: number, dy: number, dx: number, dGain: number, dBias: number, rows: number, d: number): void;
}

type BinaryExport = (a: number, b: number, out: number, rows: number, cols: number, aMode: number, bMode: number) => void;

// The WebAssembly JS API as used here (this workspace's TypeScript libs do not declare it).
type WasmModule = object;
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (module: WasmModule, imports: Record<string, Record<string, unknown>>) => { exports: Record<string, unknown> };
  Memory: abstract new (...args: never[]) => WasmMemory;
}
const webAssembly = (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly;

interface BackendMemory {
  wasm: WasmBackend['wasm'] & {
    asm?: { memory?: unknown };
    _malloc?(bytes: number): number;
    _free?(address: number): void;
  };
}

const requireFromHere = createRequire(import.meta.url);
let compiled: WasmModule | null | undefined;
let loadError: string | undefined;
const instances = new WeakMap<WasmMemory, SimdExports>();
let enabled = true;

/**
 * Turns Saccade's SIMD kernels off (the kernels that use them fall back to their previous route:
 * XNNPACK per batch item, the stock Sum) or back on: only to measure or compare. The environment
 * variable `SACCADE_SIMD_KERNELS=0` turns them off from the start (worker threads included).
 */
export function setSimdKernelsEnabled(value: boolean): void {
  enabled = value;
}

/** The error a kernel of Saccade's own throws when the SIMD module it runs on is not available. */
export function simdKernelsUnavailable(kernelName: string): Error {
  return new Error(`${kernelName} needs Saccade's SIMD kernels on the wasm backend, and they are not available (see simdKernelsStatus())`);
}

/** Where the build puts the compiled kernels: `<@saccade/tensor>/dist/simd-kernels.wasm`. */
export function simdKernelsPath(): string {
  const root = path.dirname(requireFromHere.resolve('@saccade/tensor/package.json'));
  return path.join(root, 'dist', simdKernelsFile);
}

/**
 * Section ids of a wasm binary (throws on a malformed one). Used to refuse a module that would
 * write to the shared heap when instantiated: data (11), data count (12) or start (8).
 */
export function wasmSectionIds(bytes: Uint8Array): number[] {
  if (bytes.length < 8 || bytes[0] !== 0 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d) {
    throw new Error('not a wasm binary');
  }
  const ids: number[] = [];
  let offset = 8;
  while (offset < bytes.length) {
    const id = bytes[offset++] ?? 0;
    let size = 0;
    let shift = 0;
    for (;;) {
      const byte = bytes[offset++];
      if (byte === undefined) throw new Error('truncated wasm section header');
      size += (byte & 0x7f) * 2 ** shift;
      shift += 7;
      if ((byte & 0x80) === 0) break;
    }
    ids.push(id);
    offset += size;
  }
  if (offset !== bytes.length) throw new Error('truncated wasm section');
  return ids;
}

function compiledModule(): WasmModule | null {
  if (compiled !== undefined) return compiled;
  compiled = null;
  if (process.env.SACCADE_SIMD_KERNELS === '0') {
    loadError = 'disabled by SACCADE_SIMD_KERNELS=0';
    return compiled;
  }
  try {
    const file = simdKernelsPath();
    if (!existsSync(file)) throw new Error(`${file} is missing: build @saccade/tensor (asc)`);
    const bytes = readFileSync(file);
    const unsafe = wasmSectionIds(bytes).filter((id) => id === 8 || id === 11 || id === 12);
    if (unsafe.length > 0) throw new Error(`${file} has a start or data section: it would write to the backend's heap`);
    compiled = new webAssembly.Module(bytes);
  } catch (error) {
    loadError = error instanceof Error ? error.message : String(error);
  }
  return compiled;
}

function instanceFor(backend: WasmBackend): SimdExports | undefined {
  if (!enabled) {
    loadError = 'turned off by setSimdKernelsEnabled(false)';
    return undefined;
  }
  const memory = (backend as unknown as BackendMemory).wasm.asm?.memory;
  if (!(memory instanceof webAssembly.Memory)) {
    loadError = 'the wasm backend does not expose its memory';
    return undefined;
  }
  const known = instances.get(memory);
  if (known) return known;
  const module = compiledModule();
  if (!module) return undefined;
  const instance = new webAssembly.Instance(module, { env: { memory } });
  const exports = instance.exports as unknown as SimdExports;
  instances.set(memory, exports);
  return exports;
}

/**
 * Whether the SIMD kernels are usable on the wasm backend (the registered one by default), and
 * why not if not.
 */
export function simdKernelsStatus(backend: unknown = findBackend('wasm')): { available: boolean; error?: string } {
  if (!backend) return { available: false, error: 'the wasm backend is not registered' };
  const available = instanceFor(backend as WasmBackend) !== undefined;
  return available ? { available } : { available, error: loadError ?? 'unavailable' };
}

export interface SimdProduct {
  /** Heap byte offsets of A, B and the output C ([batch, m, n], contiguous). */
  a: number;
  b: number;
  c: number;
  batch: number;
  m: number;
  k: number;
  n: number;
  /** Elements between consecutive batch items of A / B (0 broadcasts a single item). */
  aBatchStride: number;
  bBatchStride: number;
  transposeA: boolean;
  transposeB: boolean;
}

/**
 * Runs the product on the backend's heap; false (nothing written) when the kernel is unavailable.
 * Take the addresses after every allocation: the kernel allocates its scratch before it runs, and
 * heap offsets stay valid across growth (only JS views detach).
 */
export function runSimdBatchMatMul(backend: WasmBackend, product: SimdProduct): boolean {
  const run = instanceFor(backend)?.batchMatMul;
  if (!run) return false;
  const wasm = (backend as unknown as BackendMemory).wasm;
  let scratch = 0;
  if (product.transposeB) {
    if (!wasm._malloc || !wasm._free) return false;
    scratch = wasm._malloc(product.k * product.n * 4);
    if (scratch === 0) throw new Error('wasm heap: out of memory');
  }
  try {
    run(
      product.a,
      product.b,
      product.c,
      product.batch,
      product.m,
      product.k,
      product.n,
      product.aBatchStride,
      product.bBatchStride,
      product.transposeA ? 1 : 0,
      product.transposeB ? 1 : 0,
      scratch,
    );
  } finally {
    if (scratch !== 0) wasm._free?.(scratch);
  }
  return true;
}

/**
 * out[j] = Σ_i x[i, j] for a row-major [rows, cols] float32 matrix at heap offset `x` (a sum over
 * leading axes), rows added in order; false (nothing written) when the kernels are unavailable.
 */
export function runSimdSumRows(backend: WasmBackend, x: number, out: number, rows: number, cols: number): boolean {
  const kernels = instanceFor(backend);
  if (!kernels) return false;
  kernels.sumRows(x, out, rows, cols);
  return true;
}

/** out[i] = tanh(x[i]) for `size` float32 at heap offsets (the same floats as the stock kernel). */
export function runSimdTanh(backend: WasmBackend, x: number, out: number, size: number): boolean {
  const kernels = instanceFor(backend);
  if (!kernels) return false;
  kernels.tanh(x, out, size);
  return true;
}

export type SimdBinaryOp = 'add' | 'sub' | 'mul';

/** How an operand covers the [rows, cols] output: full, a scalar, a row per row, a value per row. */
export enum OperandMode {
  Full = 0,
  Scalar = 1,
  Row = 2,
  Column = 3,
}

export interface BinaryLayout {
  rows: number;
  cols: number;
  aMode: OperandMode;
  bMode: OperandMode;
}

/**
 * The [rows, cols] view of a broadcast binary op's output in which each operand is full, a
 * scalar, a row repeated for every row, or one value per row; undefined for other broadcasts.
 */
export function binaryLayout(aShape: readonly number[], bShape: readonly number[]): BinaryLayout | undefined {
  const rank = Math.max(aShape.length, bShape.length);
  const pad = (shape: readonly number[]) => [...new Array<number>(rank - shape.length).fill(1), ...shape];
  const a = pad(aShape);
  const b = pad(bShape);
  const out: number[] = [];
  for (let axis = 0; axis < rank; axis++) {
    const x = a[axis] ?? 1;
    const y = b[axis] ?? 1;
    if (x !== y && x !== 1 && y !== 1) return undefined;
    out.push(x === 1 ? y : x);
  }
  const product = (shape: number[]) => shape.reduce((size, dimension) => size * dimension, 1);
  const modeAt = (shape: number[], split: number): OperandMode | undefined => {
    const same = (from: number, to: number) => shape.slice(from, to).every((dimension, index) => dimension === out[from + index]);
    const ones = (from: number, to: number) => shape.slice(from, to).every((dimension) => dimension === 1);
    if (same(0, rank)) return OperandMode.Full;
    if (ones(0, rank)) return OperandMode.Scalar;
    if (ones(0, split) && same(split, rank)) return OperandMode.Row;
    if (same(0, split) && ones(split, rank)) return OperandMode.Column;
    return undefined;
  };
  for (let split = 0; split <= rank; split++) {
    const aMode = modeAt(a, split);
    const bMode = modeAt(b, split);
    if (aMode !== undefined && bMode !== undefined) {
      return { rows: product(out.slice(0, split)), cols: product(out.slice(split)), aMode, bMode };
    }
  }
  return undefined;
}

/** out = a (op) b over the layout, float32 at heap offsets; false when the kernels are unavailable. */
export function runSimdBinary(backend: WasmBackend, op: SimdBinaryOp, a: number, b: number, out: number, layout: BinaryLayout): boolean {
  const kernels = instanceFor(backend);
  if (!kernels) return false;
  kernels[op](a, b, out, layout.rows, layout.cols, layout.aMode, layout.bMode);
  return true;
}

/** out[i] = GELU(x[i]) (tanh approximation) for `size` float32 at heap offsets; false when unavailable. */
export function runSimdGelu(backend: WasmBackend, x: number, out: number, size: number): boolean {
  const kernels = instanceFor(backend);
  if (!kernels) return false;
  kernels.gelu(x, out, size);
  return true;
}

/** out[i] = dy[i]·GELU'(x[i]) for `size` float32 at heap offsets; false when unavailable. */
export function runSimdGeluGrad(backend: WasmBackend, x: number, dy: number, out: number, size: number): boolean {
  const kernels = instanceFor(backend);
  if (!kernels) return false;
  kernels.geluGrad(x, dy, out, size);
  return true;
}

/** Adam's constants for one step (see the `adam` kernel in assembly/simd-kernels.ts). */
export interface AdamStep {
  /** The gradient-clipping factor applied to the gradient first (1: none). */
  scale: number;
  beta1: number;
  beta2: number;
  /** 1 − β1ᵗ and 1 − β2ᵗ, as float32. */
  correction1: number;
  correction2: number;
  epsilon: number;
  learningRate: number;
}

/**
 * One Adam update of `size` float32 at heap offsets: new weights, first and second moments into
 * their outputs; false (nothing written) when the kernels are unavailable.
 */
export function runSimdAdam(
  backend: WasmBackend,
  at: { x: number; gradient: number; m: number; v: number; xOut: number; mOut: number; vOut: number },
  size: number,
  step: AdamStep,
): boolean {
  const kernels = instanceFor(backend);
  if (!kernels) return false;
  kernels.adam(at.x, at.gradient, at.m, at.v, at.xOut, at.mOut, at.vOut, size, step.scale, step.beta1, 1 - step.beta1, step.beta2, 1 - step.beta2, step.correction1, step.correction2, step.epsilon, -step.learningRate);
  return true;
}

/** Where a smooth-max stem's operands lie on the heap, and its sizes (see `smoothMaxStem` in assembly/simd-kernels.ts). */
export interface SimdStem {
  pixels: number;
  weight: number;
  bias: number;
  /** Patches, each side × side pixels of 3 values. */
  count: number;
  side: number;
  pool: number;
  channels: number;
  beta: number;
}

/** The pooled features [count, side/pool, side/pool, channels] to `out`; false when unavailable. */
export function runSimdSmoothMaxStem(backend: WasmBackend, stem: SimdStem, out: number): boolean {
  const kernels = instanceFor(backend);
  if (!kernels) return false;
  kernels.smoothMaxStem(stem.pixels, stem.weight, stem.bias, out, stem.count, stem.side, stem.pool, stem.channels, stem.beta, Math.log(stem.pool * stem.pool));
  return true;
}

/**
 * The weight and bias gradients of Σ dy·stem(pixels) to `dWeight` ([3, channels]) and `dBias`;
 * false (nothing written) when unavailable. Its double-precision accumulators are malloced from
 * the backend's heap for the call.
 */
export function runSimdSmoothMaxStemGrad(backend: WasmBackend, stem: SimdStem, at: { dy: number; dWeight: number; dBias: number }): boolean {
  const kernels = instanceFor(backend);
  if (!kernels) return false;
  const wasm = (backend as unknown as BackendMemory).wasm;
  if (!wasm._malloc || !wasm._free) return false;
  const scratch = wasm._malloc(4 * Math.ceil(stem.channels / 4) * 4 * 8);
  if (scratch === 0) throw new Error('wasm heap: out of memory');
  try {
    kernels.smoothMaxStemGrad(stem.pixels, stem.weight, stem.bias, at.dy, at.dWeight, at.dBias, scratch, stem.count, stem.side, stem.pool, stem.channels, stem.beta);
  } finally {
    wasm._free(scratch);
  }
  return true;
}

/** Where a fused attention's operands lie on the heap, and its sizes (see `attention` in assembly/simd-kernels.ts). */
export interface SimdAttention {
  /** [batch·length, 3·heads·size]: q | k | v, heads side by side in each. */
  qkv: number;
  /** [length, length] per batch item, `biasStride` floats apart (0: one for all); undefined: none. */
  bias: number | undefined;
  biasStride: number;
  /** [batch, heads, length, 2]: each row's max and Σ e. */
  stats: number;
  batch: number;
  length: number;
  heads: number;
  size: number;
  scale: number;
}

function withScratch<T>(backend: WasmBackend, bytes: number, run: (scratch: number) => T): T | undefined {
  const wasm = (backend as unknown as BackendMemory).wasm;
  if (!wasm._malloc || !wasm._free) return undefined;
  const scratch = wasm._malloc(bytes);
  if (scratch === 0) throw new Error('wasm heap: out of memory');
  try {
    return run(scratch);
  } finally {
    wasm._free(scratch);
  }
}

/**
 * Attention's context [batch·length, heads·size] to `out` and each row's softmax stats to
 * `attention.stats`; false (nothing written) when unavailable. Its scratch (one head's scaled
 * queries, transposed keys and a tile of scores) is malloced from the backend's heap for the call.
 */
export function runSimdAttention(backend: WasmBackend, attention: SimdAttention, out: number): boolean {
  const kernels = instanceFor(backend);
  if (!kernels) return false;
  const { length, size } = attention;
  const bytes = 4 * (length + 2 * length * size + 4 * length);
  return (
    withScratch(backend, bytes, (scratch) => {
      kernels.attention(attention.qkv, attention.bias ?? 0, out, attention.stats, scratch, attention.batch, length, attention.heads, size, attention.bias === undefined ? 0 : 1, attention.biasStride, attention.scale);
      return true;
    }) ?? false
  );
}

/**
 * The gradient of Σ dy·attention(qkv) with respect to qkv, to `dqkv` ([batch·length, 3·heads·size]);
 * false (nothing written) when unavailable. Its scratch (one head's probabilities and score
 * gradients, length² floats each) is malloced from the backend's heap for the call.
 */
export function runSimdAttentionGrad(backend: WasmBackend, attention: SimdAttention, at: { dy: number; dqkv: number }): boolean {
  const kernels = instanceFor(backend);
  if (!kernels) return false;
  const { length, size } = attention;
  const tiles = Math.ceil(length / 4);
  const bytes = 4 * (length + 2 * tiles + 3 * length * size + 2 * length * length);
  return (
    withScratch(backend, bytes, (scratch) => {
      kernels.attentionGrad(attention.qkv, attention.bias ?? 0, at.dy, attention.stats, at.dqkv, scratch, attention.batch, length, attention.heads, size, attention.bias === undefined ? 0 : 1, attention.biasStride, attention.scale);
      return true;
    }) ?? false
  );
}

/** Where a decoding step's attention finds its operands on the heap (see `decodeAttention` in assembly/simd-kernels.ts). */
export interface SimdDecodeAttention {
  /** [rows, 3·heads·size]: the step's q | k | v. */
  qkv: number;
  /** [rows, heads, capacity, size] each, written at `position` in place. */
  keys: number;
  values: number;
  /** [rows, capacity]; undefined: none. */
  bias: number | undefined;
  /** [rows, heads·size]. */
  out: number;
  rows: number;
  heads: number;
  size: number;
  capacity: number;
  position: number;
  scale: number;
}

/** One decoding step's attention (see SimdDecodeAttention); false (nothing written) when unavailable. */
export function runSimdDecodeAttention(backend: WasmBackend, step: SimdDecodeAttention): boolean {
  const kernels = instanceFor(backend);
  if (!kernels) return false;
  const bytes = 4 * (step.size + step.capacity + 2);
  return (
    withScratch(backend, bytes, (scratch) => {
      kernels.decodeAttention(step.qkv, step.keys, step.values, step.bias ?? 0, step.out, scratch, step.rows, step.heads, step.size, step.capacity, step.position, step.bias === undefined ? 0 : 1, step.scale);
      return true;
    }) ?? false
  );
}

/** Where a layer norm's operands lie on the heap (see `layerNorm` in assembly/simd-kernels.ts). */
export interface SimdLayerNorm {
  /** [rows, d]. */
  x: number;
  /** [d] each. */
  gain: number;
  /** [rows] each: the forward writes them, the gradient reads them. */
  mean: number;
  inverse: number;
  rows: number;
  d: number;
}

/**
 * y = ((x − mean)·inverse)·gain + bias over each row to `at.out`, and each row's mean and inverse
 * to `norm.mean` and `norm.inverse`; false (nothing written) when unavailable.
 */
export function runSimdLayerNorm(backend: WasmBackend, norm: SimdLayerNorm, at: { bias: number; out: number }, epsilon: number): boolean {
  const kernels = instanceFor(backend);
  if (!kernels) return false;
  kernels.layerNorm(norm.x, norm.gain, at.bias, at.out, norm.mean, norm.inverse, norm.rows, norm.d, epsilon);
  return true;
}

/**
 * The gradients of Σ dy·layerNorm(x) for x, gain and bias to `at.dx` ([rows, d]), `at.dGain` and
 * `at.dBias` ([d] each), from the forward's mean and inverse; false (nothing written) when unavailable.
 */
export function runSimdLayerNormGrad(backend: WasmBackend, norm: SimdLayerNorm, at: { dy: number; dx: number; dGain: number; dBias: number }): boolean {
  const kernels = instanceFor(backend);
  if (!kernels) return false;
  kernels.layerNormGrad(norm.x, norm.gain, norm.mean, norm.inverse, at.dy, at.dx, at.dGain, at.dBias, norm.rows, norm.d);
  return true;
}
