import * as tf from '@tensorflow/tfjs-core';
import { applyLoss, type ApplyLossOptions, type ApplyLossResult, type ModelSequence, type ShardLossOutput, type VisionLanguageModel } from '@saccade/models';
import { InvalidArgumentError } from '@saccade/spec';

/** A sequence for supervised fine-tuning: the tokens and images, and which tokens are targets. */
export interface SftExample extends ModelSequence {
  /** 1 where the token is a target (aligned with tokens), e.g. the chat template's assistantMask. */
  lossMask: readonly number[];
}

/** The batch-wide total a shard of an SFT batch is normalised by. */
export interface SftLossContext {
  /** Target tokens (mask ones after column 0) in the whole batch. */
  targetTokens: number;
}

/** Target tokens of a batch: what the masked mean divides by. */
export function countTargets(examples: readonly SftExample[]): number {
  let count = 0;
  for (const example of examples) for (let column = 1; column < example.lossMask.length; column++) count += example.lossMask[column] ?? 0;
  return count;
}

/** Mean token cross-entropy over the masked tokens of the batch (a differentiable scalar). */
export function maskedCrossEntropy(model: VisionLanguageModel, examples: readonly SftExample[]): tf.Scalar {
  return sftShardLoss(model, examples, { targetTokens: countTargets(examples) }).loss;
}

/**
 * Masked cross-entropy of one shard, divided by the whole batch's target count so that shard
 * losses add up to the batch mean (DataParallel's contract).
 */
export function sftShardLoss(model: VisionLanguageModel, examples: readonly SftExample[], context: SftLossContext): ShardLossOutput {
  const inputs = model.prepare(examples, 'right');
  try {
    const loss = tf.tidy(() => {
      const mask = tf.tensor2d(lossMaskValues(examples, inputs.length), [inputs.batch, inputs.length]);
      const { logProbs } = model.logProbsAndValues(inputs, { entropies: false });
      return tf.div(tf.neg(tf.sum(tf.mul(logProbs, mask))), Math.max(context.targetTokens, 1)) as tf.Scalar;
    });
    return { loss };
  } finally {
    inputs.dispose();
  }
}

/** A supervised step: masked cross-entropy, clipping, Adam. Returns the loss before the update. */
export function sftStep(
  model: VisionLanguageModel,
  optimizer: tf.Optimizer,
  examples: readonly SftExample[],
  options: ApplyLossOptions = {},
): ApplyLossResult {
  return applyLoss(model, optimizer, () => maskedCrossEntropy(model, examples), options);
}

function lossMaskValues(examples: readonly SftExample[], length: number): Float32Array {
  const values = new Float32Array(examples.length * length);
  examples.forEach((example, row) => {
    if (example.lossMask.length !== example.tokens.length) {
      throw new InvalidArgumentError({
        argument: `examples[${row}].lossMask`,
        expected: `${example.tokens.length} entries (one per token)`,
        value: `${example.lossMask.length} entries`,
      });
    }
    // Column 0 has no prediction, so a mask there is ignored.
    for (let column = 1; column < example.lossMask.length; column++) values[row * length + column] = example.lossMask[column] ?? 0;
  });
  return values;
}
