import { beforeAll, describe, expect, it } from 'vitest';
import { tf } from '../index.js';
import { expectNoLeak, expectSameOnBackends, initWasm, randomTensor } from '../../test/compare-backends.js';

beforeAll(initWasm);

describe('GatherV2 on wasm', () => {
  const cases: Array<[string, number[], number[], number[], number]> = [
    ['embedding rows (axis 0)', [10, 64], [3, 0, 9, 3, 5], [5], 0],
    ['2-D indices', [6, 3], [1, 2, 5, 0, 0, 4], [2, 3], 0],
    ['axis 1 of rank 3', [2, 5, 4], [4, 0, 2], [3], 1],
    ['last axis', [3, 7], [6, 1], [2], 1],
  ];
  for (const [name, shape, indices, indicesShape, axis] of cases) {
    it(`${name}: values and gradient match cpu`, async () => {
      await expectSameOnBackends(() => {
        const x = randomTensor(shape, 1);
        const index = tf.tensor(indices, indicesShape, 'int32');
        const y = tf.gather(x, index, axis);
        const weights = randomTensor(y.shape, 2);
        return [y, tf.grad((input: tf.Tensor) => tf.sum(tf.mul(tf.gather(input, index, axis), weights)))(x)];
      });
    });
  }

  it('gathers int32 values and rejects indices out of range', () => {
    const x = tf.tensor([[1, 2], [3, 4], [5, 6]], [3, 2], 'int32');
    expect(tf.gather(x, tf.tensor([2, 0], [2], 'int32')).arraySync()).toEqual([[5, 6], [1, 2]]);
    const before = tf.memory().numTensors;
    expect(() => tf.gather(x, tf.tensor([3], [1], 'int32'))).toThrow(/not in \[0, 2\]/);
    expect(tf.memory().numTensors).toBe(before + 1); // the index tensor only
  });

  it('does not leak tensors, data or heap', () => {
    const x = randomTensor([20, 16], 1);
    const index = tf.tensor([1, 19, 4, 4], [4], 'int32');
    expectNoLeak(() => [tf.gather(x, index)]);
    tf.dispose([x, index]);
  });
});
