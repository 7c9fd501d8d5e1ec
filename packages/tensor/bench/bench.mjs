// Benchmarks of @saccade/tensor's built package: matMul, BatchMatMul (stock wasm vs fixed) and a
// training step of the built-in model's transformer block, on wasm (fixed / stock) and cpu.
// Prints one JSON object. `--quick` skips the slow cpu runs.
import os from 'node:os';
import { backendInfo, initTensor, registerWasmKernels, tf, unregisterWasmKernels, wasmKernelConfigs } from '../dist/index.js';
import { createStep } from './transformer-step.mjs';

const quick = process.argv.includes('--quick');
const log = (...parts) => console.error('[bench]', ...parts);

await initTensor({ backend: 'wasm' });

function timeMs(fn, { minRuns = 2, budgetMs = 1500 } = {}) {
  tf.dispose(fn()); // warm-up (and XNNPACK packing of new weights)
  const times = [];
  const started = performance.now();
  while (times.length < minRuns || performance.now() - started < budgetMs) {
    const t0 = performance.now();
    tf.dispose(fn());
    times.push(performance.now() - t0);
    if (times.length >= 50) break;
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const round = (value, digits = 2) => Number(value.toFixed(digits));

/** Only BatchMatMul stock (the other fixes stay): isolates the matMul fix. */
function useStockBatchMatMulOnly() {
  unregisterWasmKernels();
  for (const config of wasmKernelConfigs) {
    if (config.kernelName === 'BatchMatMul') continue;
    if (tf.getKernel(config.kernelName, 'wasm')) tf.unregisterKernel(config.kernelName, 'wasm');
    tf.registerKernel(config);
  }
}
function useFixes() {
  registerWasmKernels();
}
async function onBackend(name, fn) {
  await tf.setBackend(name);
  try {
    return fn();
  } finally {
    await tf.setBackend('wasm');
  }
}

const result = {
  date: new Date().toISOString(),
  machine: { cpu: os.cpus()[0]?.model, cores: os.cpus().length, loadAverageAtStart: os.loadavg().map((v) => round(v)), node: process.version, tfjs: tf.version_core },
  backend: backendInfo(),
  matMul: [],
  batchMatMul: [],
  trainingStep: [],
};

// 1. Plain matMul, wasm (fast path) vs cpu.
for (const n of [256, 512, 1024]) {
  const a = tf.randomNormal([n, n]);
  const b = tf.randomNormal([n, n]);
  const flop = 2 * n ** 3;
  const wasmMs = timeMs(() => tf.matMul(a, b));
  const cpuMs = quick && n > 512 ? NaN : await onBackend('cpu', () => timeMs(() => tf.matMul(a, b), { minRuns: 1, budgetMs: 0 }));
  result.matMul.push({ n, wasmGflops: round(flop / wasmMs / 1e6), cpuGflops: round(flop / cpuMs / 1e6) });
  log('matMul', n, result.matMul.at(-1));
  tf.dispose([a, b]);
}

// 2. BatchMatMul with transposes and batch dims: stock wasm vs fixed.
const products = [
  ['512² transposeA', [512, 512], [512, 512], true, false],
  ['512² transposeB', [512, 512], [512, 512], false, true],
  ['weight grad [2048,128]ᵀ·[2048,512]', [2048, 128], [2048, 512], true, false],
  ['shared rhs [16,128,128]·[128,512]', [16, 128, 128], [128, 512], false, false],
  ['attention QKᵀ [64,128,32]·[64,128,32]ᵀ', [64, 128, 32], [64, 128, 32], false, true],
  ['attention PV [64,128,128]·[64,128,32]', [64, 128, 128], [64, 128, 32], false, false],
  ['attention QKᵀ head 64 [32,128,64]·[32,128,64]ᵀ', [32, 128, 64], [32, 128, 64], false, true],
  ['attention PV head 64 [32,128,128]·[32,128,64]', [32, 128, 128], [32, 128, 64], false, false],
  ['attention grad dPᵀ·Q [64,128,128]ᵀ·[64,128,32]', [64, 128, 128], [64, 128, 32], true, false],
];
for (const [name, aShape, bShape, transposeA, transposeB] of products) {
  const a = tf.randomNormal(aShape);
  const b = tf.randomNormal(bShape);
  const probe = tf.matMul(a, b, transposeA, transposeB);
  const [m, n] = probe.shape.slice(-2);
  const k = transposeA ? aShape.at(-2) : aShape.at(-1);
  const flop = (2 * probe.size * k);
  probe.dispose();
  const fixedMs = timeMs(() => tf.matMul(a, b, transposeA, transposeB));
  unregisterWasmKernels();
  const stockMs = timeMs(() => tf.matMul(a, b, transposeA, transposeB), { minRuns: 2, budgetMs: 500 });
  registerWasmKernels();
  result.batchMatMul.push({ name, m, n, k, stockMs: round(stockMs), fixedMs: round(fixedMs), stockGflops: round(flop / stockMs / 1e6), fixedGflops: round(flop / fixedMs / 1e6), speedup: round(stockMs / fixedMs, 1) });
  log('batchMatMul', result.batchMatMul.at(-1));
  tf.dispose([a, b]);
}

// 3. Conv gradients (3×3, 32 channels, 32×32, batch 16): fixed wasm vs stock wasm vs cpu.
{
  const x = tf.randomNormal([16, 32, 32, 32]);
  const dy = tf.randomNormal([16, 32, 32, 32]);
  const w = tf.randomNormal([3, 3, 32, 32]);
  const attrs = { strides: 1, pad: 'same', dataFormat: 'NHWC', dimRoundingMode: undefined };
  const filterGrad = () => tf.engine().runKernel('Conv2DBackpropFilter', { x, dy }, { ...attrs, filterShape: [3, 3, 32, 32] });
  const inputGrad = () => tf.engine().runKernel('Conv2DBackpropInput', { dy, filter: w }, { ...attrs, inputShape: [16, 32, 32, 32] });
  const forward = timeMs(() => tf.conv2d(x, w, 1, 'same'));
  const entry = { shape: 'x [16,32,32,32], filter [3,3,32,32], same', forwardMs: round(forward), filterGradMs: round(timeMs(filterGrad)), inputGradMs: round(timeMs(inputGrad)) };
  unregisterWasmKernels();
  entry.stockInputGradMs = round(timeMs(inputGrad, { minRuns: 1, budgetMs: 0 }));
  entry.stockFilterGrad = 'missing on wasm';
  registerWasmKernels();
  if (!quick) entry.cpuInputGradMs = round(await onBackend('cpu', () => timeMs(inputGrad, { minRuns: 1, budgetMs: 0 })));
  entry.cpuFilterGradMs = 'not run (over 2 minutes here: 127 s measured once)';
  result.convGradients = entry;
  log('conv', entry);
  tf.dispose([x, dy, w]);
}

// 4. One training step (forward + backward + Adam) of the built-in model's block.
async function trainingStep(label, backendName, setup, options, steps) {
  await tf.setBackend(backendName);
  setup?.();
  const entry = { label, backend: backendName, ...options };
  let model;
  try {
    model = createStep(tf, options);
    model.step(); // warm-up: Adam slots, XNNPACK operators
    const before = tf.memory().numTensors;
    const times = [];
    for (let i = 0; i < steps; i++) {
      const t0 = performance.now();
      model.step();
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const ms = times[Math.floor(times.length / 2)];
    Object.assign(entry, { ms: round(ms, 0), tokensPerSecond: round(model.tokens / (ms / 1000), 0), tensorsLeaked: tf.memory().numTensors - before });
  } catch (error) {
    entry.error = String(error?.message ?? error).split('\n')[0];
  } finally {
    model?.dispose();
    await tf.setBackend('wasm');
    useFixes();
  }
  result.trainingStep.push(entry);
  log('step', entry);
}

const block = { batch: 16, width: 128, heads: 4, imageSize: 64, patch: 8, textTokens: 64 };
await trainingStep('wasm, fixed kernels, conv patch embedding', 'wasm', useFixes, { ...block, patchEmbedding: 'conv' }, 5);
await trainingStep('wasm, fixed kernels, matMul patch embedding', 'wasm', useFixes, { ...block, patchEmbedding: 'matmul' }, 5);
await trainingStep('wasm, fixed kernels, 2 heads of 64', 'wasm', useFixes, { ...block, heads: 2 }, 5);
await trainingStep('wasm, fixed kernels, batch 32', 'wasm', useFixes, { ...block, batch: 32 }, 3);
await trainingStep('wasm stock (no fixes)', 'wasm', unregisterWasmKernels, block, 1);
await trainingStep('wasm, fixes but stock BatchMatMul', 'wasm', useStockBatchMatMulOnly, block, 2);
if (!quick) await trainingStep('cpu (pure JS)', 'cpu', undefined, block, 1);

console.log(JSON.stringify(result, null, 2));
