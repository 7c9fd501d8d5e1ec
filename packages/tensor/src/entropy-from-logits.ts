import { tf } from './tf.js';

/** Entropy −Σ p log p of softmax(logits) over the last axis: [..., vocab] → [...]. */
export function entropyFromLogits(logits: tf.Tensor): tf.Tensor {
  return tf.tidy(() => {
    const logProbs = tf.logSoftmax(logits);
    return tf.neg(tf.sum(tf.mul(tf.exp(logProbs), logProbs), -1));
  });
}
