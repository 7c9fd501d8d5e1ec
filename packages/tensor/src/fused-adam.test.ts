import { beforeAll, describe, expect, it } from 'vitest';
import { initWasm, randomTensor } from '../test/compare-backends.js';
import { FusedAdamOptimizer, fusedAdamAvailable, setSimdKernelsEnabled, tf } from './index.js';

beforeAll(initWasm);

/** Three Adam steps on two weights with fixed gradients; the weights and slots after each, as bits. */
async function train(optimizer: tf.AdamOptimizer, scale: number, prefix: string): Promise<number[][]> {
  const weights = [tf.variable(randomTensor([33, 5], 1), true, `${prefix}/a`), tf.variable(randomTensor([7], 2), true, `${prefix}/b`)];
  const seen: number[][] = [];
  for (let step = 0; step < 3; step++) {
    const gradients = weights.map((weight, index) => tf.mul(randomTensor(weight.shape as number[], 10 * step + index + 3), 1 + step));
    if ('applyScaledGradients' in optimizer) (optimizer as FusedAdamOptimizer).applyScaledGradients(weights.map((weight, index) => ({ name: weight.name, tensor: gradients[index]! })), scale);
    else tf.tidy(() => optimizer.applyGradients(weights.map((weight, index) => ({ name: weight.name, tensor: tf.mul(gradients[index]!, scale) }))));
    tf.dispose(gradients);
    const slots = (await optimizer.getWeights()).slice(1).map(({ tensor }) => tensor);
    seen.push([...weights, ...slots].flatMap((tensor) => Array.from(new Uint32Array(Float32Array.from(tensor.dataSync()).buffer))));
  }
  tf.dispose(weights);
  optimizer.dispose();
  return seen;
}

describe('FusedAdamOptimizer', () => {
  it('updates weights and moments to the same floats as tfjs Adam, gradient scale included, one kernel per weight', async () => {
    expect(fusedAdamAvailable()).toBe(true);
    for (const scale of [1, 0.37]) {
      const fused = await train(new FusedAdamOptimizer(0.01, 0.9, 0.999, 1e-8), scale, `fused${scale}`);
      const stock = await train(tf.train.adam(0.01, 0.9, 0.999, 1e-8), scale, `stock${scale}`);
      expect(fused).toEqual(stock);
    }
    const weight = tf.variable(tf.ones([4]), true, 'profiled');
    const optimizer = new FusedAdamOptimizer(0.1, 0.9, 0.999, 1e-8);
    const gradient = tf.ones([4]);
    const profile = await tf.profile(() => optimizer.applyScaledGradients([{ name: 'profiled', tensor: gradient }], 0.5));
    expect(profile.kernels.filter((kernel) => kernel.name === 'SaccadeAdam')).toHaveLength(1);
    // One step of size lr against the sign of the gradient, whatever the scale (Adam normalises it).
    expect(Array.from(weight.dataSync()).map((value) => Math.round(value * 1e5) / 1e5)).toEqual([0.9, 0.9, 0.9, 0.9]);
    tf.dispose([weight, gradient]);
    optimizer.dispose();
  });

  it('is tfjs Adam, scale applied with tf.mul, when the SIMD kernels are off', async () => {
    setSimdKernelsEnabled(false);
    try {
      expect(fusedAdamAvailable()).toBe(false);
      const fused = await train(new FusedAdamOptimizer(0.01, 0.9, 0.999, 1e-8), 0.5, 'off-fused');
      const stock = await train(tf.train.adam(0.01, 0.9, 0.999, 1e-8), 0.5, 'off-stock');
      expect(fused).toEqual(stock);
    } finally {
      setSimdKernelsEnabled(true);
    }
  });

  it('keeps no tensors beyond its slots', () => {
    const weight = tf.variable(randomTensor([9, 3], 5), true, 'leak');
    const optimizer = new FusedAdamOptimizer(0.01, 0.9, 0.999, 1e-8);
    const gradient = randomTensor([9, 3], 6);
    optimizer.applyScaledGradients([{ name: 'leak', tensor: gradient }], 0.5);
    const tensors = tf.memory().numTensors;
    for (let step = 0; step < 5; step++) optimizer.applyScaledGradients([{ name: 'leak', tensor: gradient }], 0.5);
    expect(tf.memory().numTensors).toBe(tensors);
    tf.dispose([weight, gradient]);
    optimizer.dispose();
  });
});
