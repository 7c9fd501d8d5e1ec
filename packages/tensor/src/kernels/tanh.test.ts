import { beforeAll, describe, expect, it } from 'vitest';
import { tf } from '../index.js';
import { expectNoLeak, expectSameOnBackends, initWasm, randomTensor, randomValues } from '../../test/compare-backends.js';
import { stockKernel } from './wasm-backend.js';

beforeAll(initWasm);

/** The stock wasm Tanh kernel's output for `values`. */
function stockTanh(values: Float32Array): Float32Array {
  const x = tf.tensor(values);
  const kernel = stockKernel('Tanh');
  expect(kernel).toBeDefined();
  const info = kernel?.kernelFunc({ inputs: { x }, backend: tf.backend(), attrs: {} }) as tf.TensorInfo;
  const out = tf.engine().makeTensorFromTensorInfo(info);
  const result = Float32Array.from(out.dataSync());
  tf.dispose([x, out]);
  return result;
}

function expectSameFloats(actual: Float32Array, expected: Float32Array): void {
  expect(actual.length).toBe(expected.length);
  const a = new Uint32Array(actual.buffer, actual.byteOffset, actual.length);
  const e = new Uint32Array(expected.buffer, expected.byteOffset, expected.length);
  for (let index = 0; index < a.length; index++) {
    if (a[index] === e[index] || (Number.isNaN(actual[index]) && Number.isNaN(expected[index]))) continue;
    expect.fail(`tanh(${index}): ${actual[index]} vs stock ${expected[index]}`);
  }
}

describe('Tanh on wasm (SIMD)', () => {
  it('gives the same floats as the stock kernel over every range of its branches', () => {
    const size = 1 << 18;
    const uniform = randomValues(size, 1).map((value) => value * 12);
    const logUniform = randomValues(size, 2).map((value, index) => Math.sign(value) * 2 ** (((index * 7919) % 4000) / 100 - 30));
    // Evenly spaced bit patterns: every exponent, subnormals, infinities, NaNs.
    const patterns = new Float32Array(new Uint32Array(size).map((_, index) => Math.floor(index * (2 ** 32 / size))).buffer);
    const specials = new Float32Array([0, -0, Infinity, -Infinity, NaN, 1e-40, -1e-40, 1e-8, 10, -10, 10.000001, 0.5493, 0.2554, 0.3466, 1.0397, 9.35, 7]);
    for (const values of [uniform, logUniform, patterns, specials]) {
      // Odd lengths exercise the scalar tail.
      for (const length of [values.length, values.length - 3]) {
        const input = values.slice(0, length);
        const x = tf.tensor(input);
        const ours = Float32Array.from(tf.tanh(x).dataSync());
        tf.dispose(x);
        expectSameFloats(ours, stockTanh(input));
      }
    }
  });

  it('forward and gradient match cpu on a rank-3 tensor', async () => {
    await expectSameOnBackends(() => {
      const x = tf.mul(randomTensor([3, 5, 7], 1), 3);
      return [tf.tanh(x), tf.grad((input: tf.Tensor) => tf.sum(tf.mul(tf.tanh(input), randomTensor([3, 5, 7], 2))))(x)];
    });
  });

  it('does not leak tensors, data or heap', () => {
    const x = randomTensor([33, 17], 1);
    expectNoLeak(() => [tf.tanh(x)]);
    tf.dispose(x);
  });
});
