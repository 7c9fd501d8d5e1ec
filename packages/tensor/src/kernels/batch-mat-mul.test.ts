import { beforeAll, describe, it } from 'vitest';
import { tf } from '../index.js';
import { expectNoLeak, expectSameOnBackends, initWasm, randomTensor } from '../../test/compare-backends.js';

beforeAll(initWasm);

const cases: Array<[string, number[], number[], boolean, boolean]> = [
  ['2-D plain', [7, 5], [5, 6], false, false],
  ['2-D transposeA', [5, 7], [5, 6], true, false],
  ['2-D transposeB', [7, 5], [6, 5], false, true],
  ['2-D both', [5, 7], [6, 5], true, true],
  ['batched', [3, 7, 5], [3, 5, 6], false, false],
  ['batched transposeB (attention scores)', [2, 3, 9, 4], [2, 3, 9, 4], false, true],
  ['batched transposeA', [3, 5, 7], [3, 5, 6], true, false],
];

// Broadcast batches: forward only (tfjs-core 4.22's BatchMatMul gradient does not reduce a
// broadcast batch, on any backend).
const broadcastCases: Array<[string, number[], number[], boolean, boolean]> = [
  ['shared right-hand side', [4, 7, 5], [1, 5, 6], false, false],
  ['shared right-hand side, transposed', [4, 5, 7], [1, 6, 5], true, true],
  ['shared left-hand side', [1, 7, 5], [4, 6, 5], false, true],
  ['rank 3 times rank 2', [4, 7, 5], [5, 6], false, false],
];

describe('BatchMatMul on wasm', () => {
  for (const [name, aShape, bShape, transposeA, transposeB] of cases) {
    it(`${name}: forward and gradient match cpu`, async () => {
      await expectSameOnBackends(() => {
        const a = randomTensor(aShape, 1);
        const b = randomTensor(bShape, 2);
        const weights = randomTensor(tf.matMul(a, b, transposeA, transposeB).shape, 3);
        const loss = (x: tf.Tensor, y: tf.Tensor) => tf.sum(tf.mul(tf.matMul(x, y, transposeA, transposeB), weights));
        const [gradA, gradB] = tf.grads(loss)([a, b]) as [tf.Tensor, tf.Tensor];
        return [tf.matMul(a, b, transposeA, transposeB), gradA, gradB];
      });
    });
  }

  for (const [name, aShape, bShape, transposeA, transposeB] of broadcastCases) {
    it(`${name}: forward matches cpu`, async () => {
      await expectSameOnBackends(() => [
        tf.matMul(randomTensor(aShape, 1), randomTensor(bShape, 2), transposeA, transposeB),
      ]);
    });
  }

  it('does not leak tensors, data or heap', () => {
    const a = randomTensor([4, 16, 8], 1);
    const b = randomTensor([4, 16, 8], 2);
    expectNoLeak(() => [tf.matMul(a, b, false, true), tf.matMul(a, b, true, false)]);
    tf.dispose([a, b]);
  });
});
