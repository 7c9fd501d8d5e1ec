import { beforeAll, describe, it } from 'vitest';
import { tf } from '../index.js';
import { expectNoLeak, expectSameOnBackends, initWasm, randomTensor } from '../../test/compare-backends.js';

beforeAll(initWasm);

describe('SplitV on wasm', () => {
  const cases: Array<[string, number[], number | number[], number]> = [
    ['three equal pieces of the last axis', [7, 12], 3, 1],
    ['uneven sizes on axis 0', [9, 5], [2, 3, 4], 0],
    ['a middle axis of rank 4', [2, 5, 3, 4], [1, 4], 1],
    ['inferred size (-1)', [3, 10], [4, -1], -1],
  ];
  for (const [name, shape, splits, axis] of cases) {
    it(`${name}: pieces and gradient match cpu`, async () => {
      await expectSameOnBackends(() => {
        const x = randomTensor(shape, 1);
        const pieces = tf.split(x, splits, axis);
        const weights = pieces.map((piece, index) => randomTensor(piece.shape, 10 + index));
        const loss = (input: tf.Tensor) =>
          tf.addN(tf.split(input, splits, axis).map((piece, index) => tf.sum(tf.mul(piece, weights[index] as tf.Tensor))));
        return [...pieces, tf.grad(loss)(x)];
      });
    });
  }

  it('does not leak tensors, data or heap', () => {
    const x = randomTensor([16, 24], 1);
    expectNoLeak(() => tf.split(x, [8, 8, 8], 1));
    tf.dispose(x);
  });
});
