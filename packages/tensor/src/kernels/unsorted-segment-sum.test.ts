import { beforeAll, describe, expect, it } from 'vitest';
import { tf } from '../index.js';
import { expectNoLeak, expectSameOnBackends, initWasm, randomTensor } from '../../test/compare-backends.js';

beforeAll(initWasm);

describe('UnsortedSegmentSum on wasm', () => {
  it('adds rows into segments and drops out-of-range ids', () => {
    const x = tf.tensor2d([[1, 2], [3, 4], [5, 6], [7, 8]]);
    const ids = tf.tensor1d([2, 0, 2, 5], 'int32');
    expect(tf.unsortedSegmentSum(x, ids, 3).arraySync()).toEqual([[3, 4], [0, 0], [6, 8]]);
  });

  it('gives the gradient of gather (embeddings train) as on cpu', async () => {
    await expectSameOnBackends(() => {
      const table = randomTensor([11, 6], 1);
      const ids = tf.tensor2d([[1, 4, 4, 0], [10, 1, 3, 3]], [2, 4], 'int32');
      const weights = randomTensor([2, 4, 6], 2);
      const grad = tf.grad((t: tf.Tensor) => tf.sum(tf.mul(tf.gather(t, ids), weights)))(table);
      return [grad, tf.unsortedSegmentSum(randomTensor([5, 3], 3), tf.tensor1d([0, 2, 0, 1, 2], 'int32'), 3)];
    });
  });

  it('does not leak', () => {
    const table = randomTensor([50, 8], 1);
    const ids = tf.tensor1d([1, 2, 3, 1], 'int32');
    expectNoLeak(() => [tf.grad((t: tf.Tensor) => tf.sum(tf.gather(t, ids)))(table)]);
    tf.dispose([table, ids]);
  });
});
