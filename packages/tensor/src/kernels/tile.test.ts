import { beforeAll, describe, expect, it } from 'vitest';
import { tf } from '../index.js';
import { expectNoLeak, expectSameOnBackends, initWasm, randomTensor } from '../../test/compare-backends.js';

beforeAll(initWasm);

describe('Tile on wasm', () => {
  for (const [shape, reps] of [
    [[3], [4]],
    [[2, 3], [2, 3]],
    [[1, 1, 4, 4], [3, 2, 1, 1]],
    [[2, 1, 3], [1, 5, 2]],
    // A KV cache repeated per sample: the unrepeated trailing axes copied as one block.
    [[2, 1, 3, 5], [1, 3, 1, 1]],
    [[2, 3], [1, 1]],
  ] as Array<[number[], number[]]>) {
    it(`tiles ${shape} by ${reps} as cpu, with gradient`, async () => {
      await expectSameOnBackends(() => {
        const x = randomTensor(shape, 1);
        const y = tf.tile(x, reps);
        const weights = randomTensor(y.shape, 2);
        return [y, tf.grad((input: tf.Tensor) => tf.sum(tf.mul(tf.tile(input, reps), weights)))(x)];
      });
    });
  }

  it('broadcasts a bool causal mask', () => {
    const mask = tf.cast(tf.linalg.bandPart(tf.ones([3, 3]), -1, 0), 'bool');
    const broadcast = tf.broadcastTo(mask, [2, 3, 3]);
    expect(broadcast.dtype).toBe('bool');
    expect(broadcast.arraySync()).toEqual([0, 1].map(() => [[1, 0, 0], [1, 1, 0], [1, 1, 1]]));
  });

  it('does not leak', () => {
    const x = randomTensor([1, 4, 4], 1);
    expectNoLeak(() => [tf.tile(x, [3, 1, 2])]);
    x.dispose();
  });
});
