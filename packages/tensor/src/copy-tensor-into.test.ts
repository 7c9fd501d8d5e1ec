import { beforeAll, describe, expect, it } from 'vitest';
import { copyTensorInto, tf } from './index.js';
import { initWasm, randomTensor } from '../test/compare-backends.js';

beforeAll(initWasm);

describe('copyTensorInto', () => {
  it("copies a tensor's values (a variable's too) at an offset, on wasm and on cpu", async () => {
    for (const backend of ['wasm', 'cpu'] as const) {
      await tf.setBackend(backend);
      const x = randomTensor([3, 5], 1);
      const v = tf.variable(randomTensor([7], 2));
      const target = new Float32Array(new SharedArrayBuffer(4 * 25)).fill(-1);
      copyTensorInto(x, target, 2);
      copyTensorInto(v, target, 17);
      expect(Array.from(target.subarray(2, 17))).toEqual(Array.from(x.dataSync()));
      expect(Array.from(target.subarray(17, 24))).toEqual(Array.from(v.dataSync()));
      expect([target[0], target[1], target[24]]).toEqual([-1, -1, -1]);
      tf.dispose([x, v]);
    }
    await tf.setBackend('wasm');
  });

  it('refuses a target too small and a tensor that is not float32', () => {
    const x = tf.ones([4]);
    expect(() => copyTensorInto(x, new Float32Array(5), 2)).toThrow('copyTensorInto: 4 values at 2 do not fit a target of 5');
    const ints = tf.ones([2], 'int32');
    expect(() => copyTensorInto(ints, new Float32Array(2))).toThrow('copyTensorInto copies float32 tensors; got int32');
    tf.dispose([x, ints]);
  });
});
