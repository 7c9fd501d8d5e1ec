import { beforeAll, describe, expect, it } from 'vitest';
import { tf } from '../index.js';
import { expectClose, expectNoLeak, expectSameOnBackends, initWasm, randomTensor } from '../../test/compare-backends.js';
import { stockKernel } from './wasm-backend.js';

beforeAll(initWasm);

describe('Sum on wasm', () => {
  // Leading axes (the SIMD column sum): widths around its 16- and 4-column blocks.
  const cases: Array<[number[], number | number[], boolean]> = [
    [[37, 128], 0, false],
    [[5, 21], 0, true],
    [[3, 4, 19], [0, 1], false],
    [[6, 2, 3], 0, false],
    [[4, 3], [1, 0], true],
    [[1, 7], 0, false],
    // Stock paths: trailing, middle, all axes.
    [[5, 6], 1, false],
    [[3, 4, 5], 1, true],
    [[3, 4], [0, 1], false],
  ];
  for (const [shape, axis, keepDims] of cases) {
    it(`sum over ${JSON.stringify(axis)} of ${JSON.stringify(shape)}${keepDims ? ', keepDims' : ''}: value, shape and gradient match cpu`, async () => {
      await expectSameOnBackends(() => {
        const x = randomTensor(shape, 1);
        const y = tf.sum(x, axis, keepDims);
        const weights = randomTensor(y.shape, 2);
        return [y, tf.reshape(tf.tensor(y.shape), [-1]), tf.grad((input: tf.Tensor) => tf.sum(tf.mul(tf.sum(input, axis, keepDims), weights)))(x)];
      });
    });
  }

  it('gives the same floats as the stock kernel (same order of additions)', () => {
    const x = randomTensor([997, 69], 3);
    const ours = tf.sum(x, 0).dataSync();
    const stock = stockKernel('Sum');
    expect(stock).toBeDefined();
    const info = stock?.kernelFunc({ inputs: { x }, backend: tf.backend(), attrs: { axis: [0], keepDims: false } }) as tf.TensorInfo;
    const reference = tf.engine().makeTensorFromTensorInfo(info);
    expect(Array.from(ours)).toEqual(Array.from(reference.dataSync()));
    expectClose(ours, reference.dataSync(), 0, 0);
    tf.dispose([x, reference]);
  });

  it('does not leak tensors, data or heap', () => {
    const x = randomTensor([64, 40], 1);
    expectNoLeak(() => [tf.sum(x, 0), tf.sum(x, 1), tf.sum(x, 0, true)]);
    tf.dispose(x);
  });
});
