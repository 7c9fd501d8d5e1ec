import { beforeAll, describe, expect, it } from 'vitest';
import { tf } from '../index.js';
import { expectNoLeak, expectSameOnBackends, initWasm, randomTensor } from '../../test/compare-backends.js';

beforeAll(initWasm);

describe('MaxPoolGrad on wasm', () => {
  it('sends each gradient to its window maximum (hand-computed)', () => {
    const x = tf.tensor4d([1, 5, 2, 0, 3, 4, 9, 8, 7, 6, 1, 2, 0, 1, 3, 4], [1, 4, 4, 1]);
    const grad = tf.grad((input: tf.Tensor) => tf.sum(tf.mul(tf.maxPool(input as tf.Tensor4D, 2, 2, 'valid'), tf.tensor4d([1, 2, 3, 4], [1, 2, 2, 1]))))(x);
    expect(Array.from(grad.dataSync())).toEqual([0, 1, 0, 0, 0, 0, 2, 0, 3, 0, 0, 0, 0, 0, 0, 4]);
  });

  for (const [name, shape, size, stride, pad] of [
    ['2×2 stride 2 valid', [2, 6, 6, 3], 2, 2, 'valid'],
    ['3×3 stride 2 same (overlapping)', [2, 7, 5, 2], 3, 2, 'same'],
    ['3×3 stride 1 same', [1, 5, 5, 2], 3, 1, 'same'],
  ] as Array<[string, number[], number, number, 'same' | 'valid']>) {
    it(`${name}: matches cpu`, async () => {
      await expectSameOnBackends(() => {
        const x = randomTensor(shape, 1) as tf.Tensor4D;
        const y = tf.maxPool(x, size, stride, pad);
        const weights = randomTensor(y.shape, 2);
        return [y, tf.grad((input: tf.Tensor) => tf.sum(tf.mul(tf.maxPool(input as tf.Tensor4D, size, stride, pad), weights)))(x)];
      });
    });
  }

  it('does not leak', () => {
    const x = randomTensor([1, 6, 6, 2], 1) as tf.Tensor4D;
    expectNoLeak(() => [tf.grad((input: tf.Tensor) => tf.sum(tf.maxPool(input as tf.Tensor4D, 2, 2, 'valid')))(x)]);
    x.dispose();
  });
});
