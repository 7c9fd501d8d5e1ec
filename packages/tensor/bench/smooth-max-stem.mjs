#!/usr/bin/env node
// The pixel stem with smooth-max pooling: the fused kernels (smoothMaxStem) against the tfjs ops
// (smoothMaxStemOps), forward and forward + backward (weight and bias gradients of Σ dy·stem), on
// the visual-search recipe's shapes: 16-px patches, 4 × 4 blocks, 16 channels, β 30. Imports the
// BUILT dist; the variants alternate within each repetition (the same load on a shared machine).
// Prints JSON with the median ms per variant. Usage: node bench/smooth-max-stem.mjs [--patches 2048] [--repeats 7]
import { initTensor, smoothMaxStem, smoothMaxStemOps, tf } from '../dist/index.js';
import { compareVariants } from './compare-variants.mjs';

const option = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return Number(index >= 0 ? process.argv[index + 1] : fallback);
};
const patches = option('patches', 2048);
const repeats = option('repeats', 7);
await initTensor({ backend: 'wasm' });

const options = { patchSize: 16, pool: 4, sharpness: 30 };
const channels = 16;
const pixels = tf.randomUniform([patches, 16 * 16 * 3], -0.5, 0.5, 'float32', 1);
const weight = tf.variable(tf.randomNormal([3, channels], 0, 1, 'float32', 2));
const bias = tf.variable(tf.zeros([channels]));
const dy = tf.randomNormal([patches, 16 * channels], 0, 1, 'float32', 3);
const variants = { ops: smoothMaxStemOps, fused: smoothMaxStem };
const result = compareVariants(Object.keys(variants), {
  repeats,
  forward: (name) => void variants[name](pixels, weight, bias, options).dataSync(),
  forwardBackward: (name) => {
    const { grads } = tf.variableGrads(() => tf.sum(tf.mul(variants[name](pixels, weight, bias, options), dy)), [weight, bias]);
    grads[weight.name].dataSync();
  },
});
console.log(JSON.stringify({ patches, repeats, ...result }, null, 2));
