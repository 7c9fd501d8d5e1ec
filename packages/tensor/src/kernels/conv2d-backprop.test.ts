import { beforeAll, describe, it } from 'vitest';
import { tf } from '../index.js';
import { expectNoLeak, expectSameOnBackends, initWasm, randomTensor } from '../../test/compare-backends.js';

beforeAll(initWasm);

const cases: Array<[string, number[], number[], number, 'same' | 'valid']> = [
  ['3×3 same stride 1', [2, 7, 6, 3], [3, 3, 3, 4], 1, 'same'],
  ['3×3 same stride 2', [2, 7, 6, 3], [3, 3, 3, 4], 2, 'same'],
  ['patch embedding 4×4 stride 4', [2, 8, 8, 3], [4, 4, 3, 5], 4, 'valid'],
  ['5×5 valid', [1, 9, 9, 2], [5, 5, 2, 3], 1, 'valid'],
];

describe('conv2d gradients on wasm (Conv2DBackpropFilter, Conv2DBackpropInput)', () => {
  for (const [name, xShape, wShape, stride, pad] of cases) {
    it(`${name}: forward, input and filter gradients match cpu`, async () => {
      await expectSameOnBackends(() => {
        const x = randomTensor(xShape, 1) as tf.Tensor4D;
        const w = randomTensor(wShape, 2) as tf.Tensor4D;
        const y = tf.conv2d(x, w, stride, pad);
        const weights = randomTensor(y.shape, 3);
        const [dx, dw] = tf.grads((a: tf.Tensor, b: tf.Tensor) =>
          tf.sum(tf.mul(tf.conv2d(a as tf.Tensor4D, b as tf.Tensor4D, stride, pad), weights)),
        )([x, w]) as [tf.Tensor, tf.Tensor];
        return [y, dx, dw];
      });
    });
  }

  it('does not leak', () => {
    const x = randomTensor([2, 8, 8, 3], 1) as tf.Tensor4D;
    const w = randomTensor([3, 3, 3, 4], 2) as tf.Tensor4D;
    expectNoLeak(() => tf.grads((a: tf.Tensor, b: tf.Tensor) => tf.sum(tf.conv2d(a as tf.Tensor4D, b as tf.Tensor4D, 2, 'same')))([x, w]));
    tf.dispose([x, w]);
  });
});
