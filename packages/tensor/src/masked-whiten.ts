import { tf } from './tf.js';
import { maskedMean } from './masked-mean.js';

/** Whether maskedWhiten adds the mean back after scaling. */
export interface MaskedWhitenOptions {
  /** Keep the mean (add it back after scaling), as verl does for advantages; default true. */
  shiftMean?: boolean;
}

/**
 * (x − mean) / sqrt(var + 1e-8) over the masked entries, with the unbiased variance
 * (Σ mask − 1 in the denominator), as verl's `masked_whiten`. Entries outside the mask are
 * returned as computed (callers mask them again).
 */
export function maskedWhiten(x: tf.Tensor, mask: tf.Tensor, options: MaskedWhitenOptions = {}): tf.Tensor {
  const shiftMean = options.shiftMean ?? true;
  return tf.tidy(() => {
    const weights = tf.broadcastTo(tf.cast(mask, x.dtype), x.shape);
    const mean = maskedMean(x, weights);
    const centered = tf.sub(x, mean);
    const count = tf.sum(weights);
    const squares = tf.sum(tf.mul(tf.square(centered), weights));
    const variance = tf.div(squares, tf.maximum(tf.sub(count, 1), 1));
    const whitened = tf.mul(centered, tf.rsqrt(tf.add(variance, 1e-8)));
    return shiftMean ? whitened : tf.add(whitened, mean);
  });
}
