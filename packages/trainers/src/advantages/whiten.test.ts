import { InvalidArgumentError } from '@saccade/spec';
import { describe, expect, it } from 'vitest';
import { expectClose } from './test-helpers';
import { maskedMoments, maskedWhiten, maskedWhitenBatch } from './whiten';

describe('maskedWhiten (verl masked_whiten)', () => {
  it('uses the masked mean and the unbiased (Bessel) variance; unmasked entries stay 0', () => {
    // masked entries 1, 2, 3 (the 99 is masked out and must not move the statistics)
    // mean = 6/3 = 2; Σ(x−mean)² = 1 + 0 + 1 = 2; var_unbiased = 2/(3−1) = 1
    // (x − 2)/sqrt(1 + 1e−8) = ∓0.999999995, 0
    const out = maskedWhiten([1, 2, 3, 99], [1, 1, 1, 0]);
    expectClose(out, [-1 / Math.sqrt(1 + 1e-8), 0, 1 / Math.sqrt(1 + 1e-8), 0], 12);
    expect(out[3]).toBe(0);
  });

  it('is not the biased (population) variance', () => {
    // values 0, 2: mean 1, Σ = 2, unbiased var = 2/1 = 2 → ±1/√2 ≈ ±0.7071 (biased would give ±1)
    expectClose(maskedWhiten([0, 2], [1, 1]), [-Math.SQRT1_2, Math.SQRT1_2], 8);
  });

  it('shiftMean false adds the mean back, as verl does', () => {
    // (x − 2)/1 + 2 = x for the masked entries (var = 1); unmasked still 0
    expectClose(maskedWhiten([1, 2, 3, 99], [1, 1, 1, 0], { shiftMean: false }), [1, 2, 3, 0], 7);
  });

  it('gives 0 on fewer than two masked entries (no division by zero)', () => {
    expectClose(maskedWhiten([5, 7], [0, 1]), [0, 0]);
    expectClose(maskedWhiten([5, 7], [0, 1], { shiftMean: false }), [0, 7]);
    expectClose(maskedWhiten([5, 7], [0, 0]), [0, 0]);
  });

  it('all-equal masked values whiten to 0', () => {
    expectClose(maskedWhiten([3, 3, 3], [1, 1, 1]), [0, 0, 0]);
  });

  it('accepts typed arrays', () => {
    expectClose(maskedWhiten(new Float32Array([1, 2, 3]), new Uint8Array([1, 1, 1])), [-0.999999995, 0, 0.999999995]);
  });

  it('batch: one mean and variance over the masked entries of every row', () => {
    // rows [1, x] and [2, 3] with x masked out: masked values 1, 2, 3 → mean 2, var 1
    const [a, b] = maskedWhitenBatch([[1, 50], [2, 3]], [[1, 0], [1, 1]]);
    expectClose(a as Float64Array, [-0.999999995, 0]);
    expectClose(b as Float64Array, [0, 0.999999995]);
    expect(maskedMoments([[1, 50], [2, 3]], [[1, 0], [1, 1]])).toEqual({ count: 3, mean: 2, variance: 1 });
  });

  it('rejects bad input', () => {
    expect(() => maskedWhiten([1, 2], [1])).toThrow(InvalidArgumentError);
    expect(() => maskedWhiten([1, 2], [1, 2])).toThrow(/mask\[1\]/);
    expect(() => maskedWhiten([1, Number.NaN], [1, 1])).toThrow(/values\[1\]/);
    expect(() => maskedWhitenBatch([[1]], [])).toThrow(InvalidArgumentError);
  });
});
