// Every op the built-in model uses, forward and gradient, on wasm (with the fixes) against cpu.
import { beforeAll, describe, it } from 'vitest';
import { tf } from '../src/index.js';
import { expectSameOnBackends, initWasm, randomTensor } from './compare-backends.js';

beforeAll(initWasm);

type Case = [string, number[], (x: tf.Tensor) => tf.Tensor];

const layerNorm = (x: tf.Tensor): tf.Tensor => {
  const { mean, variance } = tf.moments(x, -1, true);
  return tf.div(tf.sub(x, mean), tf.sqrt(tf.add(variance, 1e-5)));
};
const gelu = (x: tf.Tensor): tf.Tensor => tf.mul(tf.mul(x, 0.5), tf.add(1, tf.erf(tf.div(x, Math.SQRT2))));
const causal = tf.linalg.bandPart(tf.ones([5, 5]), -1, 0);

const cases: Case[] = [
  ['layer norm via moments + rsqrt', [3, 8], (x) => tf.mul(layerNorm(x), tf.rsqrt(tf.add(tf.abs(x), 1)))],
  ['GELU (erf)', [4, 6], gelu],
  ['tanh GELU', [4, 6], (x) => tf.tanh(tf.mul(tf.add(x, tf.mul(0.044715, tf.pow(x, 3))), Math.sqrt(2 / Math.PI)))],
  ['softmax', [3, 7], (x) => tf.softmax(x)],
  ['logSoftmax', [3, 7], (x) => tf.logSoftmax(x)],
  ['causal mask with where', [2, 5, 5], (x) => tf.softmax(tf.where(tf.cast(causal, 'bool'), x, tf.fill(x.shape, -1e9)))],
  ['reshape + transpose (heads)', [2, 5, 8], (x) => tf.transpose(tf.reshape(x, [2, 5, 2, 4]), [0, 2, 1, 3])],
  ['slice + concat', [4, 6], (x) => tf.concat([tf.slice(x, [1, 0], [2, 6]), tf.slice(x, [0, 0], [3, 6])], 0)],
  ['mean + sum', [3, 4, 5], (x) => tf.add(tf.mean(x, [1, 2]), tf.sum(x, 1).sum(1))],
  ['sqrt', [10], (x) => tf.sqrt(tf.add(tf.abs(x), 0.5))],
  ['cross-entropy', [4, 9], (x) => tf.losses.softmaxCrossEntropy(tf.oneHot(tf.tensor1d([1, 0, 8, 3], 'int32'), 9), x)],
  ['maximum / clip', [8], (x) => tf.add(tf.maximum(x, 0.1), tf.clipByValue(x, -0.3, 0.3))],
  ['sigmoid / exp / log', [8], (x) => tf.add(tf.sigmoid(x), tf.log(tf.add(tf.exp(x), 1)))],
  ['avgPool', [1, 4, 4, 2], (x) => tf.avgPool(x as tf.Tensor4D, 2, 2, 'valid')],
  ['resizeBilinear', [1, 3, 3, 2], (x) => tf.image.resizeBilinear(x as tf.Tensor4D, [5, 5])],
];

describe('model ops: wasm matches cpu, forward and gradient', () => {
  for (const [name, shape, op] of cases) {
    it(name, async () => {
      await expectSameOnBackends(() => {
        const x = randomTensor(shape, 7);
        const y = op(x);
        const weights = randomTensor(y.shape, 8);
        return [y, tf.grad((input: tf.Tensor) => tf.sum(tf.mul(op(input), weights)))(x)];
      }, 1e-4, 1e-5);
    });
  }
});
