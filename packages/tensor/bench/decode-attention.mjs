#!/usr/bin/env node
// One generation's decoding attention, per layer: `steps` new tokens for `rows` rows against a KV
// cache that starts with a `prompt`-position prefill, three ways: 'concat' (the tfjs ops generate
// ran before decodeAttention: the cache concatenated every step, scores and context as elementwise
// products and sums), 'ops' (decodeAttentionOps on a cache at its final capacity) and 'kernel'
// (decodeAttention: SaccadeDecodeAttention writes the step's key and value in place). The small
// preset's shapes by default (64 rows = 8 prompts × 8 samples, 4 heads of 32, prompts of 118 tokens,
// 48 tokens). Imports the BUILT dist; the variants alternate within each repetition (the same load on
// a shared machine), the first repetition a warm-up. Prints JSON: median ms of the whole decode and
// per step, wall clock and this process's CPU time, per variant.
// Usage: node bench/decode-attention.mjs [--rows 64] [--heads 4] [--size 32] [--prompt 118] [--steps 48] [--repeats 7]
import { decodeAttention, decodeAttentionOps, initTensor, tf } from '../dist/index.js';

const option = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
};
const rows = option('rows', 64);
const heads = option('heads', 4);
const size = option('size', 32);
const prompt = option('prompt', 118);
const steps = option('steps', 48);
const repeats = option('repeats', 7);
await initTensor({ backend: 'wasm' });

const capacity = prompt + steps;
const d = heads * size;
const prefill = { keys: tf.randomNormal([rows, heads, prompt, size], 0, 1, 'float32', 1), values: tf.randomNormal([rows, heads, prompt, size], 0, 1, 'float32', 2) };
const qkv = Array.from({ length: steps }, (_, step) => tf.randomNormal([rows, 3 * d], 0, 1, 'float32', 10 + step));
const grown = (tensor) => tf.pad(tensor, [[0, 0], [0, 0], [0, steps], [0, 0]]);
const bias = tf.zeros([rows, capacity]);

/** The decoding loop before decodeAttention: concat the step's key and value, multiply and sum. */
function concatStep(step, cache, position) {
  const [q, k, v] = tf.split(qkv[step], 3, 1);
  const split = (x) => tf.transpose(tf.reshape(x, [rows, 1, heads, size]), [0, 2, 1, 3]);
  const keys = tf.concat([cache.keys, split(k)], 2);
  const values = tf.concat([cache.values, split(v)], 2);
  const scores = tf.add(tf.sum(tf.mul(split(tf.mul(q, 1 / Math.sqrt(size))), keys), 3), tf.expandDims(tf.slice(bias, [0, 0], [rows, position + 1]), 1));
  const context = tf.reshape(tf.sum(tf.mul(tf.expandDims(tf.softmax(scores), 3), values), 2), [rows, d]);
  return { context, keys, values };
}

const variants = {
  concat: () => ({ keys: tf.clone(prefill.keys), values: tf.clone(prefill.values) }),
  ops: () => ({ keys: grown(prefill.keys), values: grown(prefill.values) }),
  kernel: () => ({ keys: grown(prefill.keys), values: grown(prefill.values) }),
};
const stepOf = { concat: concatStep, ops: (step, cache, position) => decodeAttentionOps(qkv[step], cache, bias, { heads, position }), kernel: (step, cache, position) => decodeAttention(qkv[step], cache, bias, { heads, position }) };

/** One decode of `steps` tokens: wall and CPU milliseconds (the cache's set-up is not timed). */
function decode(name) {
  let cache = variants[name]();
  const wallStart = performance.now();
  const cpuStart = process.cpuUsage();
  for (let step = 0; step < steps; step++) {
    const next = tf.tidy(() => {
      const out = stepOf[name](step, cache, prompt + step);
      out.context.dataSync();
      return { keys: out.keys, values: out.values };
    });
    if (next.keys !== cache.keys) tf.dispose([cache.keys, cache.values]);
    cache = next;
  }
  const cpu = process.cpuUsage(cpuStart);
  const wall = performance.now() - wallStart;
  tf.dispose([cache.keys, cache.values]);
  return { wall, cpu: (cpu.user + cpu.system) / 1000 };
}

const names = Object.keys(variants);
const times = Object.fromEntries(names.map((name) => [name, { wall: [], cpu: [] }]));
for (let repeat = 0; repeat < repeats + 1; repeat++) {
  for (const name of names) {
    const { wall, cpu } = decode(name);
    if (repeat === 0) continue;
    times[name].wall.push(wall);
    times[name].cpu.push(cpu);
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const round = (value) => Math.round(100 * value) / 100;
const result = Object.fromEntries(
  names.map((name) => [name, { wallMs: round(median(times[name].wall)), cpuMs: round(median(times[name].cpu)), wallMsPerStep: round(median(times[name].wall) / steps), cpuMsPerStep: round(median(times[name].cpu) / steps) }]),
);
console.log(JSON.stringify({ rows, heads, size, prompt, steps, repeats, tensors: tf.memory().numTensors, ...result }, null, 2));
