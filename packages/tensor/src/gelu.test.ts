import { beforeAll, describe, expect, it } from 'vitest';
import { expectClose, expectNoLeak, expectSameOnBackends, initWasm, randomTensor, randomValues } from '../test/compare-backends.js';
import { gelu, geluElementwise, setSimdKernelsEnabled, tf } from './index.js';

beforeAll(initWasm);

/**
 * PyTorch's gelu(x, approximate='tanh') = 0.5x(1 + tanh(u)) in doubles, written x·σ(2u) so that it
 * stays precise where 1 + tanh(u) cancels (x ≪ 0).
 */
const gate = (x: number) => 1 / (1 + Math.exp(-2 * Math.sqrt(2 / Math.PI) * (x + 0.044715 * x ** 3)));
const reference = (x: number) => x * gate(x);
const referenceGrad = (x: number) => gate(x) + 2 * x * gate(x) * (1 - gate(x)) * Math.sqrt(2 / Math.PI) * (1 + 3 * 0.044715 * x * x);

const kernelsRun = (fn: () => tf.Tensor) => {
  const before = new Set<string>();
  const profile = tf.profile(() => fn());
  return profile.then((info) => {
    for (const kernel of info.kernels) before.add(kernel.name);
    tf.dispose(info.result as tf.Tensor);
    return [...before];
  });
};

describe('gelu', () => {
  it('gives PyTorch tanh-GELU values and gradients on wasm and on cpu, odd lengths and edges included', async () => {
    const values = Float32Array.from([...randomValues(1021, 7)].map((value) => value * 9).concat([0, -0, 3, -3, 1e-5, -1e-5, 7.9, -7.9, 12, -12, 40, -40]));
    const x = tf.tensor(values);
    const [forward, backward] = [gelu(x), tf.grad((input: tf.Tensor) => tf.sum(gelu(input)))(x)];
    // Relative precision even where GELU is tiny (x ≪ 0): 1e-5 is the float rounding of u
    // carried through e^(−2u).
    expectClose(forward.dataSync(), values.map(reference), 1e-5, 1e-30);
    expectClose(backward.dataSync(), values.map(referenceGrad), 1e-5, 1e-12);
    tf.dispose([x, forward, backward]);
    await expectSameOnBackends(() => {
      const input = tf.mul(randomTensor([3, 5, 7], 3), 4);
      const weights = randomTensor([3, 5, 7], 4);
      return [gelu(input), tf.grad((value: tf.Tensor) => tf.sum(tf.mul(gelu(value), weights)))(input)];
    }, 1e-5, 1e-6);
  });

  it('runs one fused kernel each way on wasm, the elementwise form when the SIMD kernels are off, within 1e-6 of each other', async () => {
    const x = tf.mul(randomTensor([64, 40], 11), 5);
    const dy = randomTensor([64, 40], 12);
    const run = (fn: (input: tf.Tensor) => tf.Tensor) => tf.grad((input: tf.Tensor) => tf.sum(tf.mul(fn(input), dy)))(x);
    expect((await kernelsRun(() => gelu(x))).filter((name) => name !== '')).toEqual(['SaccadeGelu']);
    expect(await kernelsRun(() => run(gelu))).toContain('SaccadeGeluGrad');
    const fused = [gelu(x), run(gelu)];
    const elementwise = [geluElementwise(x), run(geluElementwise)];
    // The elementwise form loses relative precision where 1 + tanh(u) is tiny; compare absolutely there.
    expectClose(fused[0]!.dataSync(), elementwise[0]!.dataSync(), 1e-6, 1e-6);
    expectClose(fused[1]!.dataSync(), elementwise[1]!.dataSync(), 1e-6, 1e-6);
    setSimdKernelsEnabled(false);
    try {
      expect(await kernelsRun(() => gelu(x))).not.toContain('SaccadeGelu');
    } finally {
      setSimdKernelsEnabled(true);
    }
    tf.dispose([x, dy, ...fused, ...elementwise]);
  });

  it('keeps NaN as NaN and +∞ as +∞', () => {
    const x = tf.tensor([NaN, Infinity, 100, -100]);
    const [value, grad] = [gelu(x), tf.grad((input: tf.Tensor) => tf.sum(gelu(input)))(x)];
    const values = value.dataSync();
    expect(Number.isNaN(values[0])).toBe(true);
    expect(Array.from(values.slice(1, 3))).toEqual([Infinity, 100]);
    expect(values[3]).toBeLessThanOrEqual(0);
    expect(values[3]).toBeGreaterThan(-1e-30);
    expect(Number.isNaN(grad.dataSync()[0])).toBe(true);
    expect(grad.dataSync()[2]).toBe(1);
    expect(Math.abs(grad.dataSync()[3]!)).toBeLessThan(1e-30);
    tf.dispose([x, value, grad]);
  });

  it('does not leak tensors, data or heap', () => {
    const x = randomTensor([33, 17], 1);
    expectNoLeak(() => [gelu(x), tf.grad((input: tf.Tensor) => tf.sum(gelu(input)))(x)]);
    tf.dispose(x);
  });
});
