import { at, checkFiniteArray, checkMask, checkPositive, checkSameLength, fail, type NumericArray } from './validate';

/** Whether maskedWhiten keeps the mean subtracted, and the ε under its square root. */
export interface MaskedWhitenOptions {
  /**
   * `true` (default): (x − mean) / sqrt(var + ε). `false`: the mean is added back,
   * (x − mean) / sqrt(var + ε) + mean, as verl's `masked_whiten(shift_mean=False)` does.
   */
  shiftMean?: boolean;
  /** ε under the square root; verl uses 1e-8. */
  epsilon?: number;
}

/** Mean and unbiased (Bessel-corrected) variance of the masked entries of several rows together. */
export interface MaskedMoments {
  /** Number of masked entries. */
  count: number;
  /** Their mean (0 when count is 0). */
  mean: number;
  /** Their unbiased variance Σ(x − mean)² / (count − 1) (0 when count ≤ 1). */
  variance: number;
}

/** Mean and unbiased variance over the entries where the mask is 1, over every row together. */
export function maskedMoments(rows: readonly NumericArray[], masks: readonly NumericArray[]): MaskedMoments {
  let count = 0;
  let sum = 0;
  rows.forEach((row, r) => {
    const mask = masks[r] as NumericArray;
    for (let i = 0; i < row.length; i++) {
      if (mask[i] === 1) {
        count += 1;
        sum += at(row, i);
      }
    }
  });
  if (count === 0) return { count, mean: 0, variance: 0 };
  const mean = sum / count;
  // Two passes (centre first) rather than E[x²] − E[x]², for accuracy.
  let squares = 0;
  rows.forEach((row, r) => {
    const mask = masks[r] as NumericArray;
    for (let i = 0; i < row.length; i++) {
      if (mask[i] === 1) squares += (at(row, i) - mean) ** 2;
    }
  });
  return { count, mean, variance: count > 1 ? squares / (count - 1) : 0 };
}

function whitenRows(
  rows: readonly NumericArray[],
  masks: readonly NumericArray[],
  options: MaskedWhitenOptions,
): Float64Array[] {
  const shiftMean = options.shiftMean ?? true;
  const epsilon = options.epsilon === undefined ? 1e-8 : checkPositive(options.epsilon, 'options.epsilon');
  const { count, mean, variance } = maskedMoments(rows, masks);
  // count ≤ 1: the centred value is exactly 0, whatever the (undefined) variance; we do not divide by 0.
  const scale = count > 1 ? 1 / Math.sqrt(variance + epsilon) : 0;
  return rows.map((row, r) => {
    const mask = masks[r] as NumericArray;
    const out = new Float64Array(row.length);
    for (let i = 0; i < row.length; i++) {
      if (mask[i] !== 1) continue;
      const centred = (at(row, i) - mean) * scale;
      out[i] = shiftMean ? centred : centred + mean;
    }
    return out;
  });
}

/**
 * verl's `masked_whiten` over one sequence: mean and unbiased variance over the entries where
 * `mask` is 1, then (x − mean) / sqrt(var + 1e−8) at those entries. Unmasked entries come back 0
 * (verl leaves them as computed; nothing downstream reads them). With fewer than two masked
 * entries the variance is undefined; the centred values are 0 there (verl divides by zero).
 */
export function maskedWhiten(values: NumericArray, mask: NumericArray, options: MaskedWhitenOptions = {}): Float64Array {
  checkFiniteArray(values, 'values');
  checkMask(mask, 'mask');
  checkSameLength(values.length, mask, 'mask', 'values');
  return whitenRows([values], [mask], options)[0] as Float64Array;
}

/**
 * {@link maskedWhiten} over a batch: one mean and one variance over the masked entries of every
 * row together, as verl does on a (batch, length) tensor. Rows may have different lengths; each
 * mask must be as long as its row.
 */
export function maskedWhitenBatch(
  values: readonly NumericArray[],
  masks: readonly NumericArray[],
  options: MaskedWhitenOptions = {},
): Float64Array[] {
  if (!Array.isArray(values)) fail('values', 'an array of sequences', values);
  if (!Array.isArray(masks)) fail('masks', 'an array of masks', masks);
  if (masks.length !== values.length) {
    fail('masks', `one mask per sequence (${values.length})`, `${masks.length} masks`);
  }
  values.forEach((row, r) => {
    checkFiniteArray(row, `values[${r}]`);
    const mask = checkMask(masks[r], `masks[${r}]`);
    checkSameLength(row.length, mask, `masks[${r}]`, `values[${r}]`);
  });
  return whitenRows(values, masks, options);
}
