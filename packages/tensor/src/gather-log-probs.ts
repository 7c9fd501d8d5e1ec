import { tf } from './tf.js';

/**
 * log softmax(logits)[…, token] at each position: logits [..., vocab], tokenIds [...] → [...].
 * Picks with a one-hot product rather than gather: for the small vocabularies of the built-in
 * model it is as cheap and its gradient is a plain multiply on every backend.
 */
export function gatherLogProbs(logits: tf.Tensor, tokenIds: tf.Tensor): tf.Tensor {
  return tf.tidy(() => {
    const vocab = logits.shape[logits.shape.length - 1] ?? 0;
    const logProbs = tf.logSoftmax(logits);
    const oneHot = tf.oneHot(tf.cast(tokenIds, 'int32'), vocab);
    return tf.sum(tf.mul(logProbs, oneHot), -1);
  });
}
