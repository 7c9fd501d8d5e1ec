// A test-only loss for the model's own tests: the mean negative log-probability of the tokens a
// mask marks, divided by the whole batch's marked tokens so that shard losses add up (DataParallel's
// contract). The trainers own the real SFT loss; the model's tests only need something to
// differentiate. Plain JS so that DataParallel's worker threads can import it.
import * as tf from '@tensorflow/tfjs-core';

/** Marked tokens after column 0 (column 0 predicts nothing). */
export function countMarked(examples) {
  let count = 0;
  for (const example of examples) for (let column = 1; column < example.lossMask.length; column++) count += example.lossMask[column];
  return count;
}

/** The shard loss: −Σ log p(marked tokens) / context.markedTokens. */
export function targetTokenLoss(model, shard, context) {
  const inputs = model.prepare(shard, 'right');
  try {
    const loss = tf.tidy(() => {
      const mask = new Float32Array(inputs.batch * inputs.length);
      shard.forEach((example, row) => {
        for (let column = 1; column < example.lossMask.length; column++) mask[row * inputs.length + column] = example.lossMask[column];
      });
      const { logProbs } = model.logProbsAndValues(inputs, { entropies: false });
      return tf.div(tf.neg(tf.sum(tf.mul(logProbs, tf.tensor2d(mask, [inputs.batch, inputs.length])))), Math.max(context.markedTokens, 1));
    });
    return { loss };
  } finally {
    inputs.dispose();
  }
}

/** The loss of a whole batch. */
export function batchTargetTokenLoss(model, examples) {
  return targetTokenLoss(model, examples, { markedTokens: countMarked(examples) }).loss;
}
