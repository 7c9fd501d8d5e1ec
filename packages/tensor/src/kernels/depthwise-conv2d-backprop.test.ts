import { beforeAll, describe, it } from 'vitest';
import { tf } from '../index.js';
import { expectNoLeak, expectSameOnBackends, initWasm, randomTensor } from '../../test/compare-backends.js';

beforeAll(initWasm);

const cases: Array<[string, number[], number[], number, 'same' | 'valid', number]> = [
  ['3×3 same, multiplier 1', [2, 6, 7, 3], [3, 3, 3, 1], 1, 'same', 1],
  ['3×3 same stride 2, multiplier 2', [2, 7, 7, 2], [3, 3, 2, 2], 2, 'same', 1],
  ['5×5 valid, multiplier 3', [1, 9, 8, 2], [5, 5, 2, 3], 1, 'valid', 1],
];

describe('depthwise conv gradients on wasm', () => {
  for (const [name, xShape, wShape, stride, pad, dilation] of cases) {
    it(`${name}: forward, input and filter gradients match cpu`, async () => {
      await expectSameOnBackends(() => {
        const x = randomTensor(xShape, 1) as tf.Tensor4D;
        const w = randomTensor(wShape, 2) as tf.Tensor4D;
        const forward = (a: tf.Tensor, b: tf.Tensor) =>
          tf.depthwiseConv2d(a as tf.Tensor4D, b as tf.Tensor4D, stride, pad, 'NHWC', dilation);
        const y = forward(x, w);
        const weights = randomTensor(y.shape, 3);
        const [dx, dw] = tf.grads((a: tf.Tensor, b: tf.Tensor) => tf.sum(tf.mul(forward(a, b), weights)))([x, w]) as [tf.Tensor, tf.Tensor];
        return [y, dx, dw];
      });
    });
  }

  it('does not leak', () => {
    const x = randomTensor([1, 6, 6, 2], 1) as tf.Tensor4D;
    const w = randomTensor([3, 3, 2, 1], 2) as tf.Tensor4D;
    expectNoLeak(() => tf.grads((a: tf.Tensor, b: tf.Tensor) => tf.sum(tf.depthwiseConv2d(a as tf.Tensor4D, b as tf.Tensor4D, 1, 'same')))([x, w]));
    tf.dispose([x, w]);
  });
});
