import { beforeAll, describe, expect, it } from 'vitest';
import { tf } from '../index.js';
import { expectNoLeak, expectSameOnBackends, initWasm, randomTensor } from '../../test/compare-backends.js';
import { binaryLayout, OperandMode } from './simd-kernels.js';
import { stockKernel } from './wasm-backend.js';

beforeAll(initWasm);

const { Full, Scalar, Row, Column } = OperandMode;

describe('binaryLayout', () => {
  it('views broadcasts as [rows, cols] with full, scalar, row and column operands', () => {
    expect(binaryLayout([4, 5], [4, 5])).toEqual({ rows: 1, cols: 20, aMode: Full, bMode: Full });
    expect(binaryLayout([4, 5], [])).toEqual({ rows: 1, cols: 20, aMode: Full, bMode: Scalar });
    expect(binaryLayout([1], [4, 5])).toEqual({ rows: 1, cols: 20, aMode: Scalar, bMode: Full });
    expect(binaryLayout([4, 5], [5])).toEqual({ rows: 4, cols: 5, aMode: Full, bMode: Row });
    expect(binaryLayout([4, 5], [4, 1])).toEqual({ rows: 4, cols: 5, aMode: Full, bMode: Column });
    expect(binaryLayout([2, 3, 6, 6], [6, 6])).toEqual({ rows: 6, cols: 36, aMode: Full, bMode: Row });
    expect(binaryLayout([4, 1], [5])).toEqual({ rows: 4, cols: 5, aMode: Column, bMode: Row });
    expect(binaryLayout([2, 3, 4], [2, 1, 4])).toBeUndefined();
    expect(binaryLayout([3, 4], [2, 4])).toBeUndefined();
  });
});

/** The stock wasm kernel's output. */
function stock(name: string, a: tf.Tensor, b: tf.Tensor): Float32Array {
  const kernel = stockKernel(name);
  expect(kernel).toBeDefined();
  const info = kernel?.kernelFunc({ inputs: { a, b }, backend: tf.backend(), attrs: {} }) as tf.TensorInfo;
  const out = tf.engine().makeTensorFromTensorInfo(info);
  const values = Float32Array.from(out.dataSync());
  out.dispose();
  return values;
}

const pairs: Array<[number[], number[]]> = [
  [[7, 13], [7, 13]],
  [[37, 19], []],
  [[1], [5, 3]],
  [[37, 19], [19]],
  [[19], [37, 19]],
  [[37, 19], [37, 1]],
  [[2, 3, 9, 9], [9, 9]],
  [[6, 1], [7]],
  [[3, 4, 5], [3, 1, 5]], // not a [rows, cols] broadcast: stock
];

describe('Add, Sub, Multiply on wasm (SIMD)', () => {
  for (const [name, op] of [
    ['Add', tf.add],
    ['Sub', tf.sub],
    ['Multiply', tf.mul],
  ] as const) {
    for (const [aShape, bShape] of pairs) {
      it(`${name} ${JSON.stringify(aShape)} and ${JSON.stringify(bShape)}: the stock kernel's floats, gradients as cpu`, async () => {
        const a = randomTensor(aShape, 1);
        const b = randomTensor(bShape, 2);
        expect(Array.from(op(a, b).dataSync())).toEqual(Array.from(stock(name, a, b)));
        tf.dispose([a, b]);
        await expectSameOnBackends(() => {
          const x = randomTensor(aShape, 1);
          const y = randomTensor(bShape, 2);
          const [dx, dy] = tf.grads((p: tf.Tensor, q: tf.Tensor) => tf.sum(tf.mul(op(p, q), op(p, q))))([x, y]) as [tf.Tensor, tf.Tensor];
          return [op(x, y), dx, dy];
        });
      });
    }
  }

  it('leaves int32 to the stock kernels', () => {
    expect(Array.from(tf.add(tf.tensor([1, 2], [2], 'int32'), tf.tensor([3], [1], 'int32')).dataSync())).toEqual([4, 5]);
  });

  it('does not leak tensors, data or heap', () => {
    const a = randomTensor([16, 10], 1);
    const b = randomTensor([10], 2);
    expectNoLeak(() => [tf.add(a, b), tf.sub(a, tf.scalar(2)), tf.mul(a, a)]);
    tf.dispose([a, b]);
  });
});
