// A tiny vision-language model for tests: patch-embedding conv + token embedding → one causal
// transformer block (multi-head attention, layer norm via moments, GELU MLP) → next-token loss.
import { tf } from '../src/index.js';
import { randomValues } from './compare-backends.js';

export interface TinyVlmConfig {
  vocab: number;
  width: number;
  heads: number;
  tokens: number;
  imageSize: number;
  patch: number;
}

export type TinyVlmWeights = Record<string, tf.Variable>;

export function createWeights(config: TinyVlmConfig, seed: number): TinyVlmWeights {
  const { vocab, width, patch, tokens, imageSize } = config;
  const sequence = (imageSize / patch) ** 2 + tokens;
  const shapes: Record<string, number[]> = {
    patchKernel: [patch, patch, 3, width],
    tokenEmbedding: [vocab, width],
    position: [sequence, width],
    qkv: [width, 3 * width],
    projection: [width, width],
    up: [width, 4 * width],
    down: [4 * width, width],
    head: [width, vocab],
  };
  const weights: TinyVlmWeights = {};
  Object.entries(shapes).forEach(([name, shape], index) => {
    const fanIn = shape.length === 4 ? (shape[0] ?? 1) * (shape[1] ?? 1) * (shape[2] ?? 1) : (shape[0] ?? 1);
    const values = randomValues(shape.reduce((a, b) => a * b, 1), seed + index).map((v) => v * Math.sqrt(3 / fanIn));
    weights[name] = tf.variable(tf.tensor(values, shape), true, `${name}_${seed}_${Math.random()}`);
  });
  return weights;
}

function layerNorm(x: tf.Tensor): tf.Tensor {
  const { mean, variance } = tf.moments(x, -1, true);
  return tf.mul(tf.sub(x, mean), tf.rsqrt(tf.add(variance, 1e-5)));
}

function gelu(x: tf.Tensor): tf.Tensor {
  return tf.mul(tf.mul(x, 0.5), tf.add(1, tf.erf(tf.mul(x, Math.SQRT1_2))));
}

function get(weights: TinyVlmWeights, name: string): tf.Variable {
  const weight = weights[name];
  if (!weight) throw new Error(`missing weight ${name}`);
  return weight;
}

/** Mean next-token cross-entropy over the text positions. */
export function tinyVlmLoss(config: TinyVlmConfig, weights: TinyVlmWeights, images: tf.Tensor4D, tokenIds: tf.Tensor2D): tf.Scalar {
  const { width, heads, vocab, patch } = config;
  const batch = images.shape[0];
  const w = (name: string) => get(weights, name);
  const patches = tf.conv2d(images, w('patchKernel') as tf.Tensor4D, patch, 'valid');
  const imageTokens = tf.reshape(patches, [batch, -1, width]);
  const textTokens = tf.gather(w('tokenEmbedding'), tokenIds);
  const x0 = tf.add(tf.concat([imageTokens, textTokens], 1), w('position'));
  const sequence = x0.shape[1] ?? 0;
  const headWidth = width / heads;
  // Dense layers on [batch·sequence, width]: one plain 2-D product each.
  const flat = (t: tf.Tensor) => tf.reshape(t, [batch * sequence, -1]);
  const qkv = tf.reshape(tf.matMul(flat(layerNorm(x0)), w('qkv')), [batch, sequence, 3, heads, headWidth]);
  const [q, k, v] = [0, 1, 2].map((index) =>
    tf.transpose(tf.squeeze(tf.slice(qkv, [0, 0, index, 0, 0], [-1, -1, 1, -1, -1]), [2]), [0, 2, 1, 3]),
  ) as [tf.Tensor, tf.Tensor, tf.Tensor];
  const causal = tf.cast(tf.linalg.bandPart(tf.ones([sequence, sequence]), -1, 0), 'bool');
  const scores = tf.mul(tf.matMul(q, k, false, true), 1 / Math.sqrt(headWidth));
  const attention = tf.softmax(tf.where(tf.broadcastTo(causal, scores.shape), scores, tf.fill(scores.shape, -1e9)));
  const mixed = tf.reshape(tf.transpose(tf.matMul(attention, v), [0, 2, 1, 3]), [batch * sequence, width]);
  const x1 = tf.add(flat(x0), tf.matMul(mixed, w('projection')));
  const x2 = tf.add(x1, tf.matMul(gelu(tf.matMul(layerNorm(x1), w('up'))), w('down')));
  const logits = tf.reshape(tf.matMul(layerNorm(x2), w('head')), [batch, sequence, vocab]);
  // Position i predicts token i + 1: the last image position predicts the first text token.
  const textCount = tokenIds.shape[1];
  const predicting = tf.slice(logits, [0, sequence - textCount - 1, 0], [-1, textCount, -1]);
  return tf.losses.softmaxCrossEntropy(tf.oneHot(tokenIds, vocab), predicting) as tf.Scalar;
}

/** Trains for `steps` with Adam on fixed data; returns the losses and the tensor counts seen. */
export function trainTinyVlm(config: TinyVlmConfig, steps: number, seed = 1): { losses: number[]; tensorCounts: number[] } {
  const batch = 4;
  const weights = createWeights(config, seed);
  const images = tf.tensor4d(randomValues(batch * config.imageSize ** 2 * 3, seed + 100), [batch, config.imageSize, config.imageSize, 3]);
  const ids = Array.from(randomValues(batch * config.tokens, seed + 200), (v) => Math.floor((v + 1) / 2 * config.vocab));
  const tokenIds = tf.tensor2d(ids, [batch, config.tokens], 'int32');
  const optimizer = tf.train.adam(0.01);
  const losses: number[] = [];
  const tensorCounts: number[] = [];
  for (let step = 0; step < steps; step++) {
    const loss = optimizer.minimize(() => tinyVlmLoss(config, weights, images, tokenIds), true);
    losses.push(loss?.dataSync()[0] ?? NaN);
    loss?.dispose();
    tensorCounts.push(tf.memory().numTensors);
  }
  optimizer.dispose();
  tf.dispose([images, tokenIds, ...Object.values(weights)]);
  return { losses, tensorCounts };
}
