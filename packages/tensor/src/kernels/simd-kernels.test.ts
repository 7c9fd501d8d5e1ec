import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { tf } from '../index.js';
import { expectClose, expectNoLeak, expectSameOnBackends, initWasm, randomTensor, randomValues } from '../../test/compare-backends.js';
import { asWasmBackend, tensorAddress } from './wasm-backend.js';
import { runSimdBatchMatMul, simdKernelsPath, simdKernelsStatus, wasmSectionIds } from './simd-kernels.js';

beforeAll(initWasm);

/** Plain JS reference: C[item] = op(A[item]) · op(B[item]), in float64. */
function reference(
  a: Float32Array,
  b: Float32Array,
  { batch, m, k, n, aBatchStride, bBatchStride, transposeA, transposeB }: { batch: number; m: number; k: number; n: number; aBatchStride: number; bBatchStride: number; transposeA: boolean; transposeB: boolean },
): Float32Array {
  const c = new Float32Array(batch * m * n);
  for (let item = 0; item < batch; item++) {
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < n; j++) {
        let sum = 0;
        for (let p = 0; p < k; p++) {
          const x = a[item * aBatchStride + (transposeA ? p * m + i : i * k + p)] ?? NaN;
          const y = b[item * bBatchStride + (transposeB ? j * k + p : p * n + j)] ?? NaN;
          sum += x * y;
        }
        c[item * m * n + i * n + j] = sum;
      }
    }
  }
  return c;
}

// Sizes around the 4-row × 8-column register block: every tail (rows 1–3, 4-wide and 1–3 column
// remainders), k = 1, and the attention shapes of the small preset.
const shapes: Array<[number, number, number, number]> = [
  [1, 1, 1, 1],
  [2, 3, 5, 7],
  [3, 4, 8, 8],
  [2, 5, 3, 13],
  [1, 9, 1, 12],
  [4, 7, 17, 6],
  [2, 13, 32, 21],
  [2, 37, 32, 37],
  [3, 148, 32, 148],
  // Long depths (> 256) are cut into blocks of 64: an exact multiple, and a remainder.
  [1, 13, 300, 21],
  [2, 6, 320, 9],
];

describe('the SIMD BatchMatMul kernel (AssemblyScript)', () => {
  it('is built without a data, data-count or start section and loads on the backend', () => {
    const ids = wasmSectionIds(readFileSync(simdKernelsPath()));
    expect(ids.filter((id) => id === 8 || id === 11 || id === 12)).toEqual([]);
    expect(simdKernelsStatus(asWasmBackend(tf.backend()))).toEqual({ available: true });
  });

  for (const [batch, m, k, n] of shapes) {
    for (const transposeA of [false, true]) {
      for (const transposeB of [false, true]) {
        for (const broadcast of ['none', 'a', 'b'] as const) {
          if (broadcast !== 'none' && batch === 1) continue;
          it(`[${batch}, ${m}, ${k}] · [${k}, ${n}], transposeA ${transposeA}, transposeB ${transposeB}, broadcast ${broadcast}`, () => {
            const backend = asWasmBackend(tf.backend());
            const aItems = broadcast === 'a' ? 1 : batch;
            const bItems = broadcast === 'b' ? 1 : batch;
            const aValues = randomValues(aItems * m * k, 1 + m);
            const bValues = randomValues(bItems * k * n, 2 + n);
            const a = tf.tensor(aValues);
            const b = tf.tensor(bValues);
            // Poison the output to see that every element is written.
            const c = tf.fill([batch * m * n], NaN);
            const product = {
              batch,
              m,
              k,
              n,
              aBatchStride: aItems === 1 ? 0 : m * k,
              bBatchStride: bItems === 1 ? 0 : k * n,
              transposeA,
              transposeB,
            };
            const ran = runSimdBatchMatMul(backend, {
              ...product,
              a: tensorAddress(backend, a).offset,
              b: tensorAddress(backend, b).offset,
              c: tensorAddress(backend, c).offset,
            });
            expect(ran).toBe(true);
            expectClose(c.dataSync(), reference(aValues, bValues, product), 1e-5, 1e-5);
            // The operands are left as they were.
            expect(Array.from(a.dataSync())).toEqual(Array.from(aValues));
            expect(Array.from(b.dataSync())).toEqual(Array.from(bValues));
            tf.dispose([a, b, c]);
          });
        }
      }
    }
  }

  it('writes nothing outside its output', () => {
    const backend = asWasmBackend(tf.backend());
    const a = randomTensor([3, 5, 7], 1);
    const b = randomTensor([3, 6, 7], 2);
    const guarded = tf.fill([3 * 5 * 6 + 16], 7);
    const c = tensorAddress(backend, guarded).offset + 8 * 4;
    runSimdBatchMatMul(backend, {
      a: tensorAddress(backend, a).offset,
      b: tensorAddress(backend, b).offset,
      c,
      batch: 3,
      m: 5,
      k: 7,
      n: 6,
      aBatchStride: 35,
      bBatchStride: 42,
      transposeA: false,
      transposeB: true,
    });
    const values = guarded.dataSync();
    expect(Array.from(values.slice(0, 8))).toEqual(new Array(8).fill(7));
    expect(Array.from(values.slice(8 + 90))).toEqual(new Array(8).fill(7));
    expectClose(values.slice(8, 98), tf.matMul(a, b, false, true).dataSync(), 1e-5, 1e-5);
    tf.dispose([a, b, guarded]);
  });

  // Through tf.matMul (the registered BatchMatMul routes true batches here): forward and the
  // gradients (which are transposed batched products) against the cpu backend.
  const batched: Array<[number[], number[], boolean, boolean]> = [
    [[2, 3, 148, 32], [2, 3, 148, 32], false, true],
    [[2, 3, 37, 37], [2, 3, 37, 32], false, false],
    [[5, 11, 9], [5, 9, 3], false, false],
    [[5, 9, 11], [5, 9, 3], true, false],
    [[5, 11, 9], [5, 3, 9], false, true],
    [[5, 9, 11], [5, 3, 9], true, true],
    // 2-D Aᵀ·B (weight gradients) with a long depth.
    [[301, 13], [301, 21], true, false],
  ];
  for (const [aShape, bShape, transposeA, transposeB] of batched) {
    it(`tf.matMul ${JSON.stringify(aShape)} · ${JSON.stringify(bShape)} (${transposeA}, ${transposeB}): forward and gradients match cpu`, async () => {
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

  it('broadcasts a single left-hand item over the batch (forward, against cpu)', async () => {
    await expectSameOnBackends(() => [tf.matMul(randomTensor([1, 7, 5], 1), randomTensor([4, 6, 5], 2), false, true)]);
    await expectSameOnBackends(() => [tf.matMul(randomTensor([1, 5, 7], 1), randomTensor([2, 2, 5, 6], 2), true, false)]);
  });

  it('does not leak tensors, data or heap (its scratch included)', () => {
    const a = randomTensor([8, 37, 32], 1);
    const b = randomTensor([8, 37, 32], 2);
    const c = randomTensor([8, 20, 37], 3);
    expectNoLeak(() => [tf.matMul(a, b, false, true), tf.matMul(a, b, true, false), tf.matMul(a, c, true, true)]);
    tf.dispose([a, b, c]);
  });
});

describe('wasmSectionIds', () => {
  it('lists sections and rejects what is not wasm', () => {
    // magic, version 1, then a type section (id 1) of 4 bytes and a custom section (id 0) of 1.
    const bytes = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 1, 4, 1, 0x60, 0, 0, 0, 1, 0]);
    expect(wasmSectionIds(bytes)).toEqual([1, 0]);
    expect(() => wasmSectionIds(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]))).toThrow(/not a wasm/);
    expect(() => wasmSectionIds(bytes.slice(0, 12))).toThrow(/truncated/);
  });
});
