import { beforeAll, describe, expect, it } from 'vitest';
import { tf } from '../index.js';
import { expectNoLeak, expectSameOnBackends, initWasm, randomTensor } from '../../test/compare-backends.js';

beforeAll(initWasm);

const cases: Array<[string, number[], number[], number[]]> = [
  ['rank 1', [10], [3], [4]],
  ['rank 2 rows', [6, 5], [2, 0], [3, -1]],
  ['rank 2 columns', [6, 5], [0, 1], [-1, 3]],
  ['rank 4 middle', [2, 5, 4, 3], [1, 1, 2, 0], [1, 3, 2, 2]],
  ['rank 5 q/k/v split', [2, 7, 3, 2, 4], [0, 0, 1, 0, 0], [-1, -1, 1, -1, -1]],
  ['rank 6 everything partial', [2, 3, 4, 3, 2, 5], [1, 0, 1, 1, 0, 2], [1, 2, 2, 2, 2, 3]],
];

describe('Slice on wasm', () => {
  for (const [name, shape, begin, size] of cases) {
    it(`${name}: forward and gradient match cpu`, async () => {
      await expectSameOnBackends(() => {
        const x = randomTensor(shape, 1);
        const y = tf.slice(x, begin, size);
        const weights = randomTensor(y.shape, 2);
        return [y, tf.grad((input: tf.Tensor) => tf.sum(tf.mul(tf.slice(input, begin, size), weights)))(x)];
      });
    });
  }

  it('slices int32 and bool tensors', () => {
    expect(tf.slice(tf.tensor2d([[1, 2, 3], [4, 5, 6]], [2, 3], 'int32'), [0, 1], [2, 1]).arraySync()).toEqual([[2], [5]]);
    expect(tf.slice(tf.tensor1d([true, false, true], 'bool'), [1], [2]).arraySync()).toEqual([0, 1]);
  });

  it('does not leak', () => {
    const x = randomTensor([2, 7, 3, 2, 4], 1);
    expectNoLeak(() => [tf.slice(x, [0, 0, 1, 0, 0], [-1, -1, 1, -1, -1])]);
    x.dispose();
  });
});
