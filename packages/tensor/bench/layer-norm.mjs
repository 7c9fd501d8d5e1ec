#!/usr/bin/env node
// Layer norm over the last axis, two ways: 'ops' (layerNormOps: tfjs's Mean, Sub, Multiply, Rsqrt…
// with a hand-written gradient, what the models ran before) and 'kernel' (layerNorm:
// SaccadeLayerNorm and SaccadeLayerNormGrad), forward alone and forward + backward (the gradients
// for x, gain and bias, given dy), at [64, 128] (a decoding step of the small preset: 8 prompts × 8
// samples, width 128) and [4800, 128] (a training batch's rows). Imports the BUILT dist. Each
// sample times enough calls to take ~25 ms (the count set once per shape and pass, from the ops'
// time); the variants alternate within each repetition (the same load on a shared machine), the
// first repetition a warm-up. Prints JSON: per shape and pass, the median ms per call (wall clock
// and this process's CPU time) of each variant, and ops/kernel.
// Usage: node bench/layer-norm.mjs [--width 128] [--rows 64,4800] [--repeats 9]
import { initTensor, layerNorm, layerNormOps, tf } from '../dist/index.js';

const option = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : fallback;
};
const width = Number(option('width', 128));
const rowCounts = String(option('rows', '64,4800')).split(',').map(Number);
const repeats = Number(option('repeats', 9));
const epsilon = 1e-5;
await initTensor({ backend: 'wasm' });

const variants = { ops: layerNormOps, kernel: layerNorm };
const passes = {
  forward: (norm, { x, gain, bias }) => norm(x, gain, bias, epsilon),
  forwardBackward: (norm, { x, gain, bias, dy }) => tf.grads((a, g, b) => norm(a, g, b, epsilon))([x, gain, bias], dy),
};

/** `calls` calls of one variant: wall and CPU milliseconds per call. */
function time(pass, norm, operands, calls) {
  const wallStart = performance.now();
  const cpuStart = process.cpuUsage();
  for (let call = 0; call < calls; call++) tf.dispose(tf.tidy(() => pass(norm, operands)));
  const cpu = process.cpuUsage(cpuStart);
  return { wall: (performance.now() - wallStart) / calls, cpu: (cpu.user + cpu.system) / 1000 / calls };
}

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const round = (value) => Math.round(1000 * value) / 1000;
const results = {};
for (const rows of rowCounts) {
  const operands = tf.tidy(() => ({
    x: tf.add(tf.randomNormal([rows, width], 0, 1, 'float32', 1), 0.5),
    gain: tf.randomNormal([width], 1, 0.2, 'float32', 2),
    bias: tf.randomNormal([width], 0, 0.2, 'float32', 3),
    dy: tf.randomNormal([rows, width], 0, 1, 'float32', 4),
  }));
  const shape = `${rows}x${width}`;
  results[shape] = {};
  for (const [passName, pass] of Object.entries(passes)) {
    for (const norm of Object.values(variants)) time(pass, norm, operands, 10);
    const calls = Math.max(1, Math.round(25 / time(pass, layerNormOps, operands, 3).wall));
    const times = Object.fromEntries(Object.keys(variants).map((name) => [name, { wall: [], cpu: [] }]));
    for (let repeat = 0; repeat < repeats + 1; repeat++) {
      for (const [name, norm] of Object.entries(variants)) {
        const { wall, cpu } = time(pass, norm, operands, calls);
        if (repeat === 0) continue;
        times[name].wall.push(wall);
        times[name].cpu.push(cpu);
      }
    }
    const summary = Object.fromEntries(Object.keys(variants).map((name) => [name, { wallMs: round(median(times[name].wall)), cpuMs: round(median(times[name].cpu)) }]));
    results[shape][passName] = { calls, ...summary, speedup: Math.round((100 * summary.ops.wallMs) / summary.kernel.wallMs) / 100 };
  }
  tf.dispose(Object.values(operands));
}
console.log(JSON.stringify({ width, repeats, tensors: tf.memory().numTensors, ...results }, null, 2));
