import * as tf from '@tensorflow/tfjs-core';
import type { ShardLossOutput, VisionLanguageModel } from '@saccade/models';
import { InvalidArgumentError } from '@saccade/spec';
import { policyLossArrays, policyLossTerms, validateExample, type PolicyExample, type PolicyLossContext } from './policy-loss';

/** A PPO training sequence: a policy example plus the critic's targets. */
export interface PpoExample extends PolicyExample {
  /** The value target of every token (GAE's returns; 0 off the value mask). */
  returns: readonly number[];
  /** The value head's output when the rollout was played (the centre of the clipped value loss). */
  oldValues: readonly number[];
  /** 1 where the critic trains: the loss mask (bi-level, masked GAE) or the ends of turns (turn-wise GAE). */
  valueMask: readonly number[];
}

/**
 * The policy loss's batch-wide settings plus the value loss's: its token count, weight and clip
 * range, and the policy terms' weight.
 */
export interface PpoLossContext extends PolicyLossContext {
  /** Value-masked tokens in the whole batch (the value loss is a mean over them). */
  valueTokenCount: number;
  /** Weight of the value loss (vf_coef). */
  valueCoefficient: number;
  /** Clip range of the value loss around the old values (verl's cliprange_value); 0: unclipped. */
  valueClip: number;
  /** Weight of the policy terms (clip loss, KL, entropy); 0 trains the critic alone (value warm-up). */
  policyCoefficient: number;
}

/**
 * PPO's loss on one shard: policyCoefficient·(clipped policy loss + β·KL − c·H, as
 * {@link policyShardLoss}) + valueCoefficient·valueLoss, with the value loss a mean over the
 * value-masked tokens of the batch of ½·max((V − R)², (V_old + clip(V − V_old, ±ε_v) − R)²)
 * (½·(V − R)² when valueClip is 0), as verl's critic computes it. One forward pass gives the
 * log-probs, entropies and values (the model's two heads share the trunk). Metrics: policyLoss,
 * valueLoss, valueClipFraction and the policy loss's (clipFraction, entropy, approxKl, kl).
 */
export function ppoShardLoss(model: VisionLanguageModel, examples: readonly PpoExample[], context: PpoLossContext): ShardLossOutput {
  examples.forEach(validateExample(context));
  examples.forEach(validatePpoExample);
  const inputs = model.prepare(examples, 'right');
  try {
    const { batch, length } = inputs;
    const arrays = policyLossArrays(examples, context, batch, length);
    const valueWeights = new Float32Array(batch * length);
    const returns = new Float32Array(batch * length);
    const oldValues = new Float32Array(batch * length);
    const valueScale = 1 / Math.max(context.valueTokenCount, 1);
    examples.forEach((example, row) => {
      for (let column = 1; column < example.tokens.length; column++) {
        const index = row * length + column;
        valueWeights[index] = (example.valueMask[column] ?? 0) * valueScale;
        returns[index] = example.returns[column] ?? 0;
        oldValues[index] = example.oldValues[column] ?? 0;
      }
    });
    return tf.tidy(() => {
      const shape: [number, number] = [batch, length];
      const { logProbs, entropies, values } = model.logProbsAndValues(inputs, context.sampling ? { sampling: context.sampling } : {});
      const { perToken, weight, metrics } = policyLossTerms(logProbs, entropies, arrays, context);
      const policyLoss = tf.sum(tf.mul(weight, perToken));
      const valueWeight = tf.tensor2d(valueWeights, shape);
      const target = tf.tensor2d(returns, shape);
      let perTokenValue = tf.square(tf.sub(values, target));
      if (context.valueClip > 0) {
        const old = tf.tensor2d(oldValues, shape);
        const clippedValues = tf.add(old, tf.clipByValue(tf.sub(values, old), -context.valueClip, context.valueClip));
        const clippedError = tf.square(tf.sub(clippedValues, target));
        metrics['valueClipFraction'] = tf.sum(tf.mul(valueWeight, tf.cast(tf.greater(clippedError, perTokenValue), 'float32')));
        perTokenValue = tf.maximum(perTokenValue, clippedError);
      }
      const valueLoss = tf.mul(tf.sum(tf.mul(valueWeight, perTokenValue)), 0.5);
      metrics['policyLoss'] = policyLoss as tf.Scalar;
      metrics['valueLoss'] = valueLoss as tf.Scalar;
      const loss = tf.add(tf.mul(policyLoss, context.policyCoefficient), tf.mul(valueLoss, context.valueCoefficient)) as tf.Scalar;
      for (const name of Object.keys(metrics)) metrics[name] = tf.keep(metrics[name]!);
      return { loss, metrics };
    });
  } finally {
    inputs.dispose();
  }
}

function validatePpoExample(example: PpoExample, row: number): void {
  for (const [name, values] of [['returns', example.returns], ['oldValues', example.oldValues], ['valueMask', example.valueMask]] as const) {
    if (values?.length !== example.tokens.length) {
      throw new InvalidArgumentError({
        argument: `examples[${row}].${name}`,
        expected: `${example.tokens.length} entries (one per token)`,
        value: values === undefined ? 'none' : `${values.length} entries`,
      });
    }
  }
}
