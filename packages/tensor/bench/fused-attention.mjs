#!/usr/bin/env node
// Multi-head attention: the fused kernels (fusedAttention) against the tfjs ops (fusedAttentionOps),
// forward and forward + backward (qkv's gradient of Σ dy·attention), on the small preset's decoder
// shapes: 32 sequences of 148 positions, 4 heads of 32, a causal mask (or --mask none, the image
// encoder's). Imports the BUILT dist; the variants alternate within each repetition (the same load
// on a shared machine). Prints JSON with the median ms per variant.
// Usage: node bench/fused-attention.mjs [--batch 32] [--length 148] [--heads 4] [--size 32] [--mask causal|none] [--repeats 7]
import { fusedAttention, fusedAttentionOps, initTensor, tf } from '../dist/index.js';
import { compareVariants } from './compare-variants.mjs';

const option = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : fallback;
};
const batch = Number(option('batch', 32));
const length = Number(option('length', 148));
const heads = Number(option('heads', 4));
const size = Number(option('size', 32));
const mask = option('mask', 'causal');
const repeats = Number(option('repeats', 7));
await initTensor({ backend: 'wasm' });

const shape = { batch, length, heads };
const qkv = tf.randomNormal([batch * length, 3 * heads * size], 0, 1, 'float32', 1);
const dy = tf.randomNormal([batch * length, heads * size], 0, 1, 'float32', 2);
const causal = new Float32Array(length * length);
for (let i = 0; i < length; i++) for (let j = i + 1; j < length; j++) causal[i * length + j] = -1e9;
const bias = mask === 'causal' ? tf.tensor2d(causal, [length, length]) : undefined;
const variants = { ops: fusedAttentionOps, fused: fusedAttention };
const result = compareVariants(Object.keys(variants), {
  repeats,
  forward: (name) => void variants[name](qkv, bias, shape).dataSync(),
  forwardBackward: (name) => void tf.grad((x) => tf.sum(tf.mul(variants[name](x, bias, shape), dy)))(qkv).dataSync(),
});
console.log(JSON.stringify({ batch, length, heads, size, mask, repeats, ...result }, null, 2));
