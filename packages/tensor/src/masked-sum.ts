import { tf } from './tf.js';

/** The axes a masked reduction (maskedSum, maskedMean) runs over, and whether it keeps them. */
export interface MaskedReduceOptions {
  /** Axis or axes to reduce; all when omitted. */
  axis?: number | number[];
  keepDims?: boolean;
}

/** Σ x·mask (mask of 0/1, broadcast to x). */
export function maskedSum(x: tf.Tensor, mask: tf.Tensor, options: MaskedReduceOptions = {}): tf.Tensor {
  return tf.tidy(() => tf.sum(tf.mul(x, tf.cast(mask, x.dtype)), options.axis, options.keepDims));
}
