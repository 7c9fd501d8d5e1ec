import { beforeAll, describe, expect, it } from 'vitest';
import { tf } from '../index.js';
import { expectNoLeak, initWasm, randomTensor } from '../../test/compare-backends.js';

beforeAll(initWasm);

describe('Identity on wasm', () => {
  it('shares data: a clone outlives its source and keeps its values', () => {
    const x = tf.tensor2d([[1, 2], [3, 4]]);
    const clone = tf.clone(x);
    x.dispose();
    expect(clone.arraySync()).toEqual([[1, 2], [3, 4]]);
    const int = tf.clone(tf.tensor1d([5, 6], 'int32'));
    expect(int.dtype).toBe('int32');
    expect(int.arraySync()).toEqual([5, 6]);
    tf.dispose([clone, int]);
  });

  it('frees the data once every sharer is disposed', () => {
    const x = randomTensor([64, 64], 1);
    expectNoLeak(() => [tf.clone(x), tf.clone(tf.clone(x))]);
    x.dispose();
  });
});
