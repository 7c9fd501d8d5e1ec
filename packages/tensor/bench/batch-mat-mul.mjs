#!/usr/bin/env node
// Benchmark of Saccade's SIMD kernels (AssemblyScript, assembly/simd-kernels.ts) and native
// products (native/matmul.cc: exact and fused, where built) against the routes they replace, on the shapes of the small preset's training step (batch 32, 4 heads of
// 32, 148 positions; 64 image positions in the encoder; 4,736 token rows). Imports the BUILT dist. Variants are
// interleaved within each repetition, so they see the same load on a shared machine; the JSON
// gives the median per variant. Usage: node bench/batch-mat-mul.mjs [--repeats N]
import os from 'node:os';
import {
  initTensor,
  nativeMatMulStatus,
  registerWasmKernels,
  setNativeMatMulEnabled,
  setNativeMatMulOptions,
  setSimdKernelsEnabled,
  simdKernelsStatus,
  tf,
  unregisterWasmKernels,
} from '../dist/index.js';

const repeatsIndex = process.argv.indexOf('--repeats');
const repeats = repeatsIndex >= 0 ? Number(process.argv[repeatsIndex + 1]) : 7;
await initTensor({ backend: 'wasm' });

/** Sets which route the products take: Saccade's wasm kernels, its SIMD kernels, the native product and its mode. */
const route =
  ({ wasmKernels = true, simd = true, native = false, fused = false }) =>
  () => {
    if (wasmKernels) registerWasmKernels();
    else unregisterWasmKernels();
    setSimdKernelsEnabled(simd);
    setNativeMatMulEnabled(native);
    if (native) setNativeMatMulOptions({ fused });
  };
const variants = {
  // The wasm backend's own kernels (scalar loop for any batch or transpose; transpose + sum).
  stock: route({ wasmKernels: false, simd: false }),
  // Saccade's previous route: XNNPACK once per batch item on heap views (transposes first).
  xnnpackPerItem: route({ simd: false }),
  // The wasm route (SACCADE_NATIVE_MATMUL=0): the SIMD kernel, XNNPACK for plain 2-D products.
  simd: route({}),
};
// The native product (native/matmul.cc), where it was built: exact (the default: the wasm route's
// floats) and fused (one FMA a step), on the best instruction set the CPU has.
const native = nativeMatMulStatus();
if (native.available) {
  variants.nativeExact = route({ native: true });
  variants.nativeFused = route({ native: true, fused: true });
}

const products = [
  { name: 'scores QKᵀ', a: [128, 148, 32], b: [128, 148, 32], transposeA: false, transposeB: true },
  { name: 'context PV', a: [128, 148, 148], b: [128, 148, 32], transposeA: false, transposeB: false },
  { name: 'gradient dP = dO·Vᵀ', a: [128, 148, 32], b: [128, 148, 32], transposeA: false, transposeB: true },
  { name: 'gradient dV = Pᵀ·dO', a: [128, 148, 148], b: [128, 148, 32], transposeA: true, transposeB: false },
  { name: 'gradient dQ = dS·K', a: [128, 148, 148], b: [128, 148, 32], transposeA: false, transposeB: false },
  { name: 'gradient dK = dSᵀ·Q', a: [128, 148, 148], b: [128, 148, 32], transposeA: true, transposeB: false },
  { name: 'encoder scores QKᵀ', a: [128, 64, 32], b: [128, 64, 32], transposeA: false, transposeB: true },
  { name: 'encoder context PV', a: [128, 64, 64], b: [128, 64, 32], transposeA: false, transposeB: false },
  { name: 'odd sizes, both transposed', a: [16, 33, 45], b: [16, 27, 33], transposeA: true, transposeB: true },
  // Weight gradients xᵀ·dy (2-D, transposeA; batch 1 so "xnnpackPerItem" is XNNPACK after a
  // transpose). The stock scalar loop takes seconds on the big ones: skipped there.
  { name: 'weight gradient MLP up [4736,128]ᵀ·[4736,512]', skipStock: true, a: [4736, 128], b: [4736, 512], transposeA: true, transposeB: false },
  { name: 'weight gradient MLP down [4736,512]ᵀ·[4736,128]', skipStock: true, a: [4736, 512], b: [4736, 128], transposeA: true, transposeB: false },
  { name: 'weight gradient qkv [4736,128]ᵀ·[4736,384]', skipStock: true, a: [4736, 128], b: [4736, 384], transposeA: true, transposeB: false },
  { name: 'weight gradient grid [512,640]ᵀ·[512,128]', a: [512, 640], b: [512, 128], transposeA: true, transposeB: false },
  // Forward products x·W (XNNPACK on the wasm route), and the input gradient dy·Wᵀ.
  { name: 'MLP up [4736,128]·[128,512]', skipStock: true, a: [4736, 128], b: [128, 512], transposeA: false, transposeB: false },
  { name: 'MLP down [4736,512]·[512,128]', skipStock: true, a: [4736, 512], b: [512, 128], transposeA: false, transposeB: false },
  { name: 'qkv [4736,128]·[128,384]', skipStock: true, a: [4736, 128], b: [128, 384], transposeA: false, transposeB: false },
  { name: 'input gradient MLP up [4736,512]·[128,512]ᵀ', skipStock: true, a: [4736, 512], b: [128, 512], transposeA: false, transposeB: true },
];
const elementwise = [
  { name: 'bias gradient Σ rows [4736, 512]', shape: [4736, 512], run: (x) => tf.sum(x, 0) },
  { name: 'bias gradient Σ rows [4736, 128]', shape: [4736, 128], run: (x) => tf.sum(x, 0) },
  { name: 'tanh [4736, 512] (GELU)', shape: [4736, 512], run: (x) => tf.tanh(x) },
  { name: 'multiply [4736, 512] · [4736, 512]', shape: [4736, 512], run: (x) => tf.mul(x, x) },
  { name: 'add bias [4736, 512] + [512]', shape: [4736, 512], run: (x, row) => tf.add(x, row) },
  { name: 'subtract per-row mean [4736, 512] − [4736, 1]', shape: [4736, 512], run: (x, _row, column) => tf.sub(x, column) },
];

/** Median of `runs` timings (ms) after one warm-up. */
function medianMs(fn, runs = 5) {
  tf.dispose(fn());
  const times = [];
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    const out = fn();
    out.dataSync();
    times.push(performance.now() - start);
    tf.dispose(out);
  }
  times.sort((x, y) => x - y);
  return times[Math.floor(times.length / 2)];
}
const median = (values) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];
const round = (value, digits = 2) => Number(value.toFixed(digits));

const cases = [
  ...products.map((product) => {
    const a = tf.randomNormal(product.a);
    const b = tf.randomNormal(product.b);
    const rank = product.a.length;
    const m = product.a[rank - (product.transposeA ? 1 : 2)];
    const k = product.a[rank - (product.transposeA ? 2 : 1)];
    const n = product.b[rank - (product.transposeB ? 2 : 1)];
    const batch = product.a.slice(0, -2).reduce((size, dimension) => size * dimension, 1);
    const flop = 2 * batch * m * k * n;
    return { kind: 'batchMatMul', product, flop, run: () => tf.matMul(a, b, product.transposeA, product.transposeB), times: {} };
  }),
  ...elementwise.map((op) => {
    const x = tf.randomNormal(op.shape);
    const row = tf.randomNormal([op.shape[1]]);
    const column = tf.randomNormal([op.shape[0], 1]);
    return { kind: 'elementwise', product: op, run: () => op.run(x, row, column), times: {} };
  }),
];

for (let repeat = 0; repeat < repeats; repeat++) {
  for (const testCase of cases) {
    for (const [variant, use] of Object.entries(variants)) {
      if (testCase.kind === 'elementwise' && (variant === 'xnnpackPerItem' || variant.startsWith('native'))) continue;
      if (testCase.product.skipStock && variant === 'stock') continue;
      use();
      (testCase.times[variant] ??= []).push(medianMs(testCase.run, 3));
    }
  }
}
// Back to the default route (the native product, exact, where built) for the status printed.
route({ native: native.available })();

const result = {
  date: new Date().toISOString(),
  machine: { cpu: os.cpus()[0]?.model, cores: os.cpus().length, loadAverage: os.loadavg().map((value) => round(value)), node: process.version },
  simdKernels: simdKernelsStatus(),
  nativeMatMul: native,
  repeats,
  note: 'median over repeats of the median of 3 runs; variants interleaved; GFLOP/s = 2·batch·m·k·n / time',
  batchMatMul: cases
    .filter((testCase) => testCase.kind === 'batchMatMul')
    .map(({ product, flop, times }) => ({
      name: product.name,
      a: product.a,
      b: product.b,
      transposeA: product.transposeA,
      transposeB: product.transposeB,
      ms: Object.fromEntries(Object.entries(times).map(([variant, values]) => [variant, round(median(values))])),
      gflops: Object.fromEntries(Object.entries(times).map(([variant, values]) => [variant, round(flop / median(values) / 1e6)])),
      speedUpOverXnnpackPerItem: round(median(times.xnnpackPerItem) / median(times.simd)),
      ...(times.nativeExact ? { nativeExactOverSimd: round(median(times.simd) / median(times.nativeExact)) } : {}),
    })),
  elementwise: cases
    .filter((testCase) => testCase.kind === 'elementwise')
    .map(({ product, times }) => ({
      name: product.name,
      ms: Object.fromEntries(Object.entries(times).map(([variant, values]) => [variant, round(median(values))])),
      speedUp: round(median(times.stock) / median(times.simd)),
    })),
};
console.log(JSON.stringify(result, null, 2));
