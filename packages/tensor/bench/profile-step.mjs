// Where a training step of the benchmark block spends its time on wasm, by kernel.
// Usage: node bench/profile-step.mjs [conv|matmul] [heads]
import { initTensor, tf } from '../dist/index.js';
import { createStep } from './transformer-step.mjs';

await initTensor({ backend: 'wasm' });
const patchEmbedding = process.argv[2] ?? 'conv';
const heads = Number(process.argv[3] ?? 4);
const model = createStep(tf, { batch: 16, width: 128, heads, imageSize: 64, patch: 8, textTokens: 64, patchEmbedding });
model.step();
model.step();
const t0 = performance.now();
const profile = await tf.profile(() => {
  model.step();
});
const total = performance.now() - t0;
const byKernel = new Map();
for (const kernel of profile.kernels) {
  const entry = byKernel.get(kernel.name) ?? { ms: 0, calls: 0 };
  entry.ms += Number(kernel.kernelTimeMs) || 0;
  entry.calls += 1;
  byKernel.set(kernel.name, entry);
}
const rows = [...byKernel].sort((a, b) => b[1].ms - a[1].ms).slice(0, 15).map(([name, { ms, calls }]) => ({ name, ms: Math.round(ms), calls }));
console.log(JSON.stringify({ patchEmbedding, heads, stepMsWithProfiling: Math.round(total), kernels: rows }, null, 1));
model.dispose();
