import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectClose, expectNoLeak, expectSameOnBackends, initWasm, kernelNames, largestMagnitude, randomTensor, readOutputs } from '../test/compare-backends.js';
import { LAYER_NORM_GRAD_KERNEL, LAYER_NORM_KERNEL, layerNormConfig, layerNormGradConfig } from './kernels/layer-norm.js';
import { layerNorm, layerNormOps, setSimdKernelsEnabled, tf } from './index.js';

beforeAll(initWasm);
afterEach(() => setSimdKernelsEnabled(true));

const EPSILON = 1e-5;

interface Operands {
  x: tf.Tensor;
  gain: tf.Tensor;
  bias: tf.Tensor;
  dy: tf.Tensor;
}

/** x off-centre (mean ≈ 0.5, so that centring matters), a gain around 1 of both signs, dy ~ U(−1, 1). */
function operands(shape: number[], seed: number): Operands {
  const d = shape[shape.length - 1]!;
  return tf.tidy(() => ({
    x: tf.add(tf.mul(randomTensor(shape, seed), 3), 0.5),
    gain: tf.add(tf.mul(randomTensor([d], seed + 1), 1.5), 0.5),
    bias: randomTensor([d], seed + 2),
    dy: randomTensor(shape, seed + 3),
  }));
}

/** y, then the gradients of Σ dy·y for x, gain and bias. */
function run(norm: typeof layerNorm, { x, gain, bias, dy }: Operands): tf.Tensor[] {
  const y = norm(x, gain, bias, EPSILON);
  const grads = tf.grads((a: tf.Tensor, g: tf.Tensor, b: tf.Tensor) => tf.sum(tf.mul(norm(a, g, b, EPSILON), dy)))([x, gain, bias]);
  return [y, ...grads];
}

/** y and the three gradients of Σ dy·y in doubles, straight from the definition. */
function float64LayerNorm(x: ArrayLike<number>, gain: ArrayLike<number>, bias: ArrayLike<number>, dy: ArrayLike<number>, d: number): Float64Array[] {
  const rows = x.length / d;
  const [y, dx, dGain, dBias] = [new Float64Array(x.length), new Float64Array(x.length), new Float64Array(d), new Float64Array(d)];
  for (let r = 0; r < rows; r++) {
    const at = (j: number) => r * d + j;
    let mean = 0;
    for (let j = 0; j < d; j++) mean += x[at(j)]! / d;
    let variance = 0;
    for (let j = 0; j < d; j++) variance += (x[at(j)]! - mean) ** 2 / d;
    const inverse = 1 / Math.sqrt(variance + EPSILON);
    const xHat = Array.from({ length: d }, (_, j) => (x[at(j)]! - mean) * inverse);
    const g = Array.from({ length: d }, (_, j) => dy[at(j)]! * gain[j]!);
    const gMean = g.reduce((sum, value) => sum + value, 0) / d;
    const gxMean = g.reduce((sum, value, j) => sum + value * xHat[j]!, 0) / d;
    for (let j = 0; j < d; j++) {
      y[at(j)] = xHat[j]! * gain[j]! + bias[j]!;
      dx[at(j)] = inverse * (g[j]! - gMean - xHat[j]! * gxMean);
      dGain[j] = dGain[j]! + dy[at(j)]! * xHat[j]!;
      dBias[j] = dBias[j]! + dy[at(j)]!;
    }
  }
  return [y, dx, dGain, dBias];
}

describe('layerNorm', () => {
  // The models' widths (128, 64), a row of 8, widths that are no multiple of 4 (the kernels'
  // column tails), row counts that are no multiple of 4 (the last group of rows), rank 3.
  const shapes = [[5, 128], [3, 4, 64], [1, 8], [7, 6], [9, 3], [2, 1], [6, 33]];

  it.each(shapes)("gives layerNormOps' values and gradients for x, gain and bias bit for bit, in one kernel each way: [%i, %i…]", async (...shape) => {
    const given = operands(shape, shape.reduce((a, b) => a * b, 1));
    const fused = readOutputs(run(layerNorm, given));
    const ops = readOutputs(run(layerNormOps, given));
    expect(fused.map((values) => values.length)).toEqual([given.x.size, given.x.size, given.gain.size, given.bias.size]);
    // The kernels run the ops' float operations in their order (rows summed column by column from
    // 0 as Mean does, columns summed row by row as Sum does): the same floats.
    fused.forEach((values, index) => expect(values).toEqual(ops[index]));
    // And within rounding of the same sums in doubles.
    const d = shape[shape.length - 1]!;
    const truth = float64LayerNorm(given.x.dataSync(), given.gain.dataSync(), given.bias.dataSync(), given.dy.dataSync(), d);
    fused.forEach((values, index) => expectClose(values, truth[index]!, 1e-5, 1e-5 * largestMagnitude(truth[index]!)));
    const names = await kernelNames(() => run(layerNorm, given));
    expect(names).toEqual(expect.arrayContaining([LAYER_NORM_KERNEL, LAYER_NORM_GRAD_KERNEL]));
    for (const name of ['Mean', 'Rsqrt', 'Sub']) expect(names).not.toContain(name);
    tf.dispose(Object.values(given));
  });

  it('gives the exact values of a small row: x = [1, 2, 3, 4]', () => {
    // mean 2.5, centred [−1.5, −0.5, 0.5, 1.5], variance (2.25 + 0.25 + 0.25 + 2.25)/4 = 1.25.
    const inverse = 1 / Math.sqrt(1.25 + EPSILON);
    const xHat = [-1.5, -0.5, 0.5, 1.5].map((value) => value * inverse);
    const x = tf.tensor2d([[1, 2, 3, 4]]);
    const ones = tf.ones([4]);
    const zeros = tf.zeros([4]);
    // Gain ones, bias zeros: y = x̂ = [−1.3416354, −0.4472118, 0.4472118, 1.3416354].
    for (const norm of [layerNorm, layerNormOps]) {
      const y = norm(x, ones, zeros, EPSILON);
      expectClose(y.dataSync(), xHat, 1e-6, 0);
      expectClose(y.dataSync(), [-1.3416354, -0.4472118, 0.4472118, 1.3416354], 1e-6, 0);
      tf.dispose(y);
    }
    // A gain and bias, and dy: g = dy·gain = [0.5, −0.4, 0.15, −0.4], mean(g) = −0.0375,
    // mean(g·x̂) = inverse·(−0.75 + 0.2 + 0.075 − 0.6)/4 = −0.26875·inverse,
    // dx = inverse·(g + 0.0375 + 0.26875·inverse·x̂), dgain = dy·x̂, dbias = dy.
    const gain = [1, 2, 0.5, -1];
    const bias = [0.1, -0.2, 0.3, 0];
    const dy = [0.5, -0.2, 0.3, 0.4];
    const g = [0.5, -0.4, 0.15, -0.4];
    const expected = [
      xHat.map((value, j) => value * gain[j]! + bias[j]!),
      g.map((value, j) => inverse * (value + 0.0375 + 0.26875 * inverse * xHat[j]!)),
      dy.map((value, j) => value * xHat[j]!),
      dy,
    ];
    const given = { x, gain: tf.tensor1d(gain), bias: tf.tensor1d(bias), dy: tf.tensor2d([dy]) };
    const fused = readOutputs(run(layerNorm, given));
    fused.forEach((values, index) => expectClose(values, expected[index]!, 1e-6, 1e-7));
    tf.dispose([x, ones, zeros, given.gain, given.bias, given.dy]);
  });

  it('runs the ops when the SIMD kernels are off, the kernels unregistered, gain is not [d], or on cpu: the same values', async () => {
    const given = operands([6, 32], 41);
    const fused = readOutputs(run(layerNorm, given));
    setSimdKernelsEnabled(false);
    const names = await kernelNames(() => run(layerNorm, given));
    expect(names).toEqual(expect.arrayContaining(['Mean', 'Rsqrt']));
    expect(names).not.toContain(LAYER_NORM_KERNEL);
    expect(names).not.toContain(LAYER_NORM_GRAD_KERNEL);
    // The stock kernels round the same (one IEEE operation per element, sums in the same order).
    readOutputs(run(layerNorm, given)).forEach((values, index) => expect(values).toEqual(fused[index]));
    setSimdKernelsEnabled(true);
    for (const config of [layerNormConfig, layerNormGradConfig]) {
      tf.unregisterKernel(config.kernelName, 'wasm');
      try {
        expect(await kernelNames(() => run(layerNorm, given))).not.toContain(LAYER_NORM_KERNEL);
      } finally {
        tf.registerKernel(config);
      }
    }
    const rowGain = tf.reshape(given.gain, [1, 32]);
    expect(await kernelNames(() => layerNorm(given.x, rowGain, given.bias, EPSILON))).not.toContain(LAYER_NORM_KERNEL);
    expect(await kernelNames(() => run(layerNorm, given))).toContain(LAYER_NORM_KERNEL);
    await expectSameOnBackends(() => {
      const x = tf.add(tf.mul(randomTensor([5, 4, 12], 5), 2), 1);
      const [gain, bias, dy] = [tf.add(randomTensor([12], 6), 1), randomTensor([12], 7), randomTensor([5, 4, 12], 8)];
      return run(layerNorm, { x, gain, bias, dy });
    }, 1e-5, 1e-6);
    tf.dispose([...Object.values(given), rowGain]);
  });

  it('does not leak tensors, data or heap, forward and gradient', () => {
    const given = operands([9, 20], 3);
    const before = tf.memory().numTensors;
    tf.dispose(tf.tidy(() => run(layerNorm, given)));
    expect(tf.memory().numTensors).toBe(before);
    expectNoLeak(() => run(layerNorm, given));
    tf.dispose(Object.values(given));
  });
});
