import { tf } from './tf.js';
import type { MaskedReduceOptions } from './masked-sum.js';

/**
 * Σ x·mask / Σ mask over the given axes. A slice with no masked entries gives 0, not NaN, so an
 * all-masked row (a padding sequence) adds nothing to a loss.
 */
export function maskedMean(x: tf.Tensor, mask: tf.Tensor, options: MaskedReduceOptions = {}): tf.Tensor {
  return tf.tidy(() => {
    const weights = tf.broadcastTo(tf.cast(mask, x.dtype), x.shape);
    const total = tf.sum(tf.mul(x, weights), options.axis, options.keepDims);
    const count = tf.sum(weights, options.axis, options.keepDims);
    return tf.div(total, tf.maximum(count, 1));
  });
}
