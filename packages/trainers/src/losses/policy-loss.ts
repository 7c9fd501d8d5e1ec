import * as tf from '@tensorflow/tfjs-core';
import type { ModelSequence, SamplingDistribution, ShardLossOutput, VisionLanguageModel } from '@saccade/models';
import { InvalidArgumentError } from '@saccade/spec';

/** One sampled turn as a training sequence: prompt + response, per-token arrays aligned with `tokens`. */
export interface PolicyExample extends ModelSequence {
  /** 1 on the tokens the policy wrote (verl's response mask). */
  lossMask: readonly number[];
  /** The advantage of every token (0 off the mask). */
  advantages: readonly number[];
  /**
   * Log-probability of each token under the policy that sampled it. Leave it out when the update is
   * the first on the rollout's weights (one epoch, one mini-batch): the current log-probs, held
   * constant, are then exactly the old ones, and no forward pass is spent on them.
   */
  oldLogProbs?: readonly number[];
  /**
   * True when `oldLogProbs` are the sampler's own (recorded as it sampled), not recomputed: the
   * first update then measures the sampler–trainer gap on this example's tokens (`logprobGap`).
   */
  sampledLogProbs?: boolean;
  /** Log-probability under the frozen reference, for the KL term (required when klCoefficient > 0). */
  referenceLogProbs?: readonly number[];
}

/** How per-token losses become one number (see PolicyLossContext.aggregation). */
export type PolicyLossAggregation = 'token-mean' | 'sequence-mean' | 'token-sum-norm';

/** Every PolicyLossAggregation, for validating a config value. */
export const POLICY_LOSS_AGGREGATIONS: readonly PolicyLossAggregation[] = ['token-mean', 'sequence-mean', 'token-sum-norm'];

/** Batch-wide settings and totals: shard losses divide by these so that they add up (DataParallel). */
export interface PolicyLossContext {
  /**
   * 'token-mean' (verl's default, DAPO), 'sequence-mean' (GRPO's paper: mean per sequence, then
   * over sequences) or 'token-sum-norm' (Dr. GRPO, verl's seq-mean-token-sum-norm: each sequence's
   * token sum divided by the constant `lengthNormalizer`, then the mean over sequences).
   */
  aggregation: PolicyLossAggregation;
  /** The constant of 'token-sum-norm' (Dr. GRPO: the longest response the sampler allows). */
  lengthNormalizer?: number;
  /** Masked tokens in the whole batch. */
  tokenCount: number;
  /** Sequences in the whole batch. */
  sequenceCount: number;
  /** PPO clip range: the ratio is clipped to [1 − clipLow, 1 + clipHigh] (DAPO's clip-higher when they differ). */
  clipLow: number;
  clipHigh: number;
  /** β of the k3 KL estimator as a loss term (0: no reference model). */
  klCoefficient: number;
  /** Weight of the entropy bonus (subtracted from the loss). */
  entropyCoefficient: number;
  /**
   * The distribution the tokens were sampled from (temperature, banned ids): log-probs, ratios and
   * entropies are taken under it, as the sampler's were. Default: the model's own.
   */
  sampling?: SamplingDistribution;
  /** Masked tokens in the whole batch whose old log-probs are the sampler's (`logprobGap`'s denominator). */
  sampledTokenCount?: number;
  /**
   * ρ of "Beyond the 80/20 Rule" (TRL's and ms-swift's `top_entropy_quantile`): the policy-gradient
   * term keeps only the tokens whose entropy (under `sampling`) is at or above the (1 − ρ) quantile
   * of the shard's trained tokens; the KL and entropy terms and the aggregation's counts are
   * unchanged. Default 1: every token.
   */
  topEntropyQuantile?: number;
}

/**
 * The clipped policy-gradient loss of PPO/GRPO on one shard (REFERENCE §6):
 * −min(r·A, clip(r, 1−ε_low, 1+ε_high)·A) + β·KL_k3(π‖π_ref) − c·H, per masked token, aggregated
 * as the context says. Metrics: clipFraction, entropy, kl, approxKl (all means over the batch),
 * and logprobGap: the mean |log π_θ − log π_sampler| over the tokens whose old log-probs the
 * sampler recorded (on the rollout's weights, the sampler–trainer gap; it should be ~1e-6).
 */
export function policyShardLoss(model: VisionLanguageModel, examples: readonly PolicyExample[], context: PolicyLossContext): ShardLossOutput {
  examples.forEach(validateExample(context));
  const inputs = model.prepare(examples, 'right');
  try {
    const arrays = policyLossArrays(examples, context, inputs.batch, inputs.length);
    return tf.tidy(() => {
      const { logProbs, entropies } = model.logProbsAndValues(inputs, context.sampling ? { sampling: context.sampling } : {});
      const { perToken, weight, metrics } = policyLossTerms(logProbs, entropies, arrays, context);
      const loss = tf.sum(tf.mul(weight, perToken)) as tf.Scalar;
      for (const name of Object.keys(metrics)) metrics[name] = tf.keep(metrics[name]!);
      return { loss, metrics };
    });
  } finally {
    inputs.dispose();
  }
}

/** The per-token inputs of the policy loss as [batch, length] rows (row-major), with its aggregation weights. */
export interface PolicyLossArrays {
  batch: number;
  length: number;
  /** Each token's share of the aggregated loss (0 off the mask and at column 0). */
  weights: Float32Array;
  advantages: Float32Array;
  /** Absent when no example has old log-probs: the update is on-policy (see PolicyExample.oldLogProbs). */
  oldLogProbs: Float32Array | undefined;
  referenceLogProbs: Float32Array;
  /** Each masked token's share of logprobGap (0 where the old log-probs are not the sampler's). */
  gapWeights: Float32Array | undefined;
}

/** Lays a shard's examples out as the policy loss reads them (see {@link policyLossTerms}). */
export function policyLossArrays(examples: readonly PolicyExample[], context: PolicyLossContext, batch: number, length: number): PolicyLossArrays {
  const weights = new Float32Array(batch * length);
  const advantages = new Float32Array(batch * length);
  const onPolicy = examples.every((example) => example.oldLogProbs === undefined);
  const oldLogProbs = onPolicy ? undefined : new Float32Array(batch * length);
  const referenceLogProbs = new Float32Array(batch * length);
  const useReference = context.klCoefficient > 0;
  const gapWeights = oldLogProbs && (context.sampledTokenCount ?? 0) > 0 ? new Float32Array(batch * length) : undefined;
  examples.forEach((example, row) => {
    let rowTokens = 0;
    for (let column = 1; column < example.tokens.length; column++) rowTokens += example.lossMask[column] ?? 0;
    const sequences = Math.max(context.sequenceCount, 1);
    const scale =
      context.aggregation === 'token-mean'
        ? 1 / Math.max(context.tokenCount, 1)
        : context.aggregation === 'token-sum-norm'
          ? 1 / (Math.max(context.lengthNormalizer ?? 1, 1) * sequences)
          : 1 / (Math.max(rowTokens, 1) * sequences);
    // Column 0 has no prediction (see logProbsAndValues), so it never carries a loss.
    for (let column = 1; column < example.tokens.length; column++) {
      const index = row * length + column;
      weights[index] = (example.lossMask[column] ?? 0) * scale;
      advantages[index] = example.advantages[column] ?? 0;
      if (oldLogProbs) oldLogProbs[index] = example.oldLogProbs?.[column] ?? 0;
      if (gapWeights && example.sampledLogProbs) gapWeights[index] = (example.lossMask[column] ?? 0) / context.sampledTokenCount!;
      if (useReference) referenceLogProbs[index] = example.referenceLogProbs?.[column] ?? 0;
    }
  });
  return { batch, length, weights, advantages, oldLogProbs, referenceLogProbs, gapWeights };
}

/**
 * The clipped policy loss per token (before aggregation), the aggregation weights, and the
 * metrics (already aggregated). Call inside tf.tidy; the caller sums weight·perToken.
 */
export function policyLossTerms(
  logProbs: tf.Tensor2D,
  entropies: tf.Tensor2D,
  arrays: PolicyLossArrays,
  context: PolicyLossContext,
): { perToken: tf.Tensor2D; weight: tf.Tensor2D; metrics: Record<string, tf.Scalar> } {
  const shape: [number, number] = [arrays.batch, arrays.length];
  const weight = tf.tensor2d(arrays.weights, shape);
  const advantage = tf.tensor2d(arrays.advantages, shape);
  // Off the mask (context, padding) the terms are 0, not computed: a banned target's log-prob is
  // −1e4, and exp of its difference to a default 0 would overflow to a NaN that a zero weight keeps.
  const trained = tf.greater(weight, 0);
  const onMask = (x: tf.Tensor2D): tf.Tensor2D => tf.where(trained, x, tf.zerosLike(x));
  const logRatio = onMask(tf.sub(logProbs, arrays.oldLogProbs ? tf.tensor2d(arrays.oldLogProbs, shape) : stopGradient(logProbs)));
  const ratio = tf.exp(logRatio);
  const unclipped = tf.mul(ratio, advantage);
  const clipped = tf.mul(tf.clipByValue(ratio, 1 - context.clipLow, 1 + context.clipHigh), advantage);
  let perToken = tf.neg(tf.minimum(unclipped, clipped));
  const quantile = context.topEntropyQuantile ?? 1;
  const forking = quantile < 1 ? highEntropyMask(entropies, arrays.weights, quantile) : undefined;
  if (forking) perToken = tf.mul(perToken, forking);
  const metrics: Record<string, tf.Scalar> = {
    clipFraction: tf.sum(tf.mul(weight, tf.cast(tf.less(clipped, unclipped), 'float32'))),
    entropy: tf.sum(tf.mul(weight, entropies)),
    approxKl: tf.sum(tf.mul(weight, tf.mul(tf.square(logRatio), 0.5))),
  };
  // The share of the shard's trained tokens the policy gradient kept (weighted as the loss is).
  if (forking) metrics['highEntropyTokens'] = tf.sum(tf.mul(weight, forking));
  if (arrays.gapWeights) metrics['logprobGap'] = tf.sum(tf.mul(tf.tensor2d(arrays.gapWeights, shape), tf.abs(logRatio)));
  if (context.klCoefficient > 0) {
    // k3 = exp(ref − logp) − (ref − logp) − 1: unbiased, non-negative (Schulman's estimator, verl's low_var_kl).
    const difference = onMask(tf.sub(tf.tensor2d(arrays.referenceLogProbs, shape), logProbs));
    const kl = tf.sub(tf.sub(tf.exp(difference), difference), 1);
    metrics['kl'] = tf.sum(tf.mul(weight, kl));
    perToken = tf.add(perToken, tf.mul(kl, context.klCoefficient));
  }
  if (context.entropyCoefficient !== 0) perToken = tf.sub(perToken, tf.mul(entropies, context.entropyCoefficient));
  return { perToken: perToken as tf.Tensor2D, weight, metrics };
}

/** Refuses a topEntropyQuantile outside (0, 1]. */
export function checkTopEntropyQuantile(quantile: number): void {
  if (!(quantile > 0 && quantile <= 1)) throw new RangeError(`topEntropyQuantile must be in (0, 1]; got ${quantile}.`);
}

/**
 * 1 where a trained token's entropy is at or above the (1 − ρ) quantile of the trained tokens'
 * entropies (linear interpolation, as torch.quantile), else 0: the "forking" tokens.
 */
export function highEntropyMask(entropies: tf.Tensor2D, weights: Float32Array, quantile: number): tf.Tensor2D {
  checkTopEntropyQuantile(quantile);
  const values = entropies.dataSync();
  const trained: number[] = [];
  for (let index = 0; index < weights.length; index++) if (weights[index]! > 0) trained.push(values[index]!);
  if (trained.length === 0) return tf.zerosLike(entropies);
  trained.sort((a, b) => a - b);
  const position = (1 - quantile) * (trained.length - 1);
  const low = Math.floor(position);
  const threshold = trained[low]! + (trained[Math.min(low + 1, trained.length - 1)]! - trained[low]!) * (position - low);
  const mask = new Float32Array(weights.length);
  for (let index = 0; index < weights.length; index++) mask[index] = weights[index]! > 0 && values[index]! >= threshold ? 1 : 0;
  return tf.tensor2d(mask, entropies.shape);
}

export function validateExample(context: PolicyLossContext): (example: PolicyExample, row: number, examples: readonly PolicyExample[]) => void {
  return (example, row, examples) => {
    if (example.oldLogProbs === undefined && examples.some((other) => other.oldLogProbs !== undefined)) {
      throw new InvalidArgumentError({ argument: `examples[${row}].oldLogProbs`, expected: 'old log-probs on every example of a batch or on none', value: 'none' });
    }
    for (const [name, values] of [['lossMask', example.lossMask], ['advantages', example.advantages], ['oldLogProbs', example.oldLogProbs ?? example.tokens]] as const) {
      if (values.length !== example.tokens.length) {
        throw new InvalidArgumentError({ argument: `examples[${row}].${name}`, expected: `${example.tokens.length} entries (one per token)`, value: `${values.length} entries` });
      }
    }
    if (context.klCoefficient > 0 && example.referenceLogProbs?.length !== example.tokens.length) {
      throw new InvalidArgumentError({
        argument: `examples[${row}].referenceLogProbs`,
        expected: `${example.tokens.length} entries (klCoefficient > 0 needs reference log-probs)`,
        value: example.referenceLogProbs === undefined ? 'none' : `${example.referenceLogProbs.length} entries`,
      });
    }
  };
}

/** The identity, with no gradient flowing back through it (PyTorch's `detach`). */
export function stopGradient<T extends tf.Tensor>(x: T): T {
  const detach = tf.customGrad((input) => ({ value: (input as tf.Tensor).clone(), gradFunc: (dy: tf.Tensor) => tf.zerosLike(dy) }));
  return detach(x) as T;
}
