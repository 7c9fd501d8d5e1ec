import type { Rng } from '@saccade/core';
import { bannedTokenIds, setLearningRate, type DataParallel, type DataParallelStepResult, type LossReference, type SamplingDistribution, type VisionLanguageModel } from '@saccade/models';
import * as tf from '@tensorflow/tfjs-core';
import { checkTopEntropyQuantile, type PolicyExample, type PolicyLossContext } from './losses/policy-loss';
import type { Trajectory } from '@saccade/spec';

// Pieces the policy-gradient trainers (GRPO, PPO) share: the update loop over a rollout batch,
// the frozen reference for the KL term, and the per-step metrics they both report.

/** Masked tokens of a sequence that carry a loss (column 0 has no prediction). */
export function maskedTokens(example: Pick<PolicyExample, 'lossMask'>): number {
  let count = 0;
  for (let column = 1; column < example.lossMask.length; column++) count += example.lossMask[column] ?? 0;
  return count;
}

/** The clip, KL and entropy settings GRPO and PPO share. */
export interface PolicyLossSettings {
  aggregation?: PolicyLossContext['aggregation'];
  /** 'token-sum-norm''s constant (default: the turn cap × the tokens a turn may generate). */
  lengthNormalizer?: number;
  maxTokens?: number;
  maxTurns?: number;
  clipLow?: number;
  clipHigh?: number;
  entropyCoefficient?: number;
  /** The policy gradient on the top-ρ entropy tokens only (PolicyLossContext.topEntropyQuantile; default 1). */
  topEntropyQuantile?: number;
}

/**
 * A batch's PolicyLossContext from a trainer's settings: the batch's masked tokens and sequences,
 * clip range (low 0.2; high `defaultClipHigh` unless set: DAPO's 0.28 for GRPO, 0.2 for PPO), KL
 * and entropy weights, and the distribution the rollout sampled from.
 */
export function policyLossContext(
  batch: readonly Pick<PolicyExample, 'lossMask' | 'sampledLogProbs'>[],
  settings: PolicyLossSettings,
  klCoefficient: number,
  defaultClipHigh: number,
  sampling?: SamplingDistribution,
): PolicyLossContext {
  // Refused here, on the trainer's thread, before a shard would refuse it in a worker.
  if (settings.topEntropyQuantile !== undefined) checkTopEntropyQuantile(settings.topEntropyQuantile);
  return {
    aggregation: settings.aggregation ?? 'token-mean',
    lengthNormalizer: settings.lengthNormalizer ?? (settings.maxTokens ?? 48) * (settings.maxTurns ?? 1),
    tokenCount: batch.reduce((sum, example) => sum + maskedTokens(example), 0),
    sequenceCount: batch.length,
    clipLow: settings.clipLow ?? 0.2,
    clipHigh: settings.clipHigh ?? defaultClipHigh,
    klCoefficient,
    entropyCoefficient: settings.entropyCoefficient ?? 0,
    ...(sampling ? { sampling } : {}),
    ...(settings.topEntropyQuantile === undefined || settings.topEntropyQuantile === 1 ? {} : { topEntropyQuantile: settings.topEntropyQuantile }),
    sampledTokenCount: batch.reduce((sum, example) => sum + (example.sampledLogProbs ? maskedTokens(example) : 0), 0),
  };
}

/**
 * The distribution a policy phase's rollouts sample from: its temperature (a greedy sampler's
 * tokens scored at 1) and the ids generation never samples.
 */
export function samplingDistribution(model: VisionLanguageModel, temperature: number): SamplingDistribution {
  return { temperature: temperature > 0 ? temperature : 1, bannedIds: bannedTokenIds(model.tokenizer) };
}

/** The largest mean |sampler − trainer| log-prob gap a step may show before training stops (see logprobGap). */
export const DEFAULT_MAX_LOGPROB_GAP = 1e-3;

/**
 * Stops a run whose trainer does not score the sampled tokens as the sampler did: past the
 * threshold the update trains on other contexts or another distribution than the rollout's.
 */
export function checkLogprobGap(step: number, metrics: Record<string, number>, maxGap: number): void {
  const gap = metrics['logprobGap'];
  if (gap === undefined || !(maxGap > 0) || gap <= maxGap) return;
  throw new Error(
    `Step ${step}: the trainer's log-probs of the sampled tokens differ from the sampler's by ${gap.toExponential(2)} nats on average ` +
      `(at most ${maxGap} expected): the update would train tokens in another context or distribution than they were sampled from. ` +
      'Check that the history window, view, maxSequenceLength and temperature of training match the rollout (maxLogprobGap: Infinity turns the check off).',
  );
}

/** Each reward term's mean over the episodes (summed over each episode's turns), as `reward/<term>` metrics. */
export function meanRewardTerms(episodes: readonly Trajectory[]): Record<string, number> {
  const sums: Record<string, number> = {};
  for (const episode of episodes) for (const turn of episode.turns) for (const [term, value] of Object.entries(turn.rewardTerms)) sums[term] = (sums[term] ?? 0) + value;
  return Object.fromEntries(Object.entries(sums).map(([term, value]) => [`reward/${term}`, value / Math.max(episodes.length, 1)]));
}

/** A frozen copy of the model (the KL reference). */
export function cloneModel(model: VisionLanguageModel): VisionLanguageModel {
  const Model = model.constructor as new (...args: ConstructorParameters<typeof VisionLanguageModel>) => VisionLanguageModel;
  return new Model(model.config, model.tokenizer, model.getWeights());
}

/**
 * Runs `model.logProbsAndValues` (no gradient) on the examples, `chunk` rows at a time, and hands
 * each example's log-probs and values (aligned with its tokens) and its index to `use`.
 */
export function forEachForward<Example extends PolicyExample>(
  model: VisionLanguageModel,
  examples: readonly Example[],
  use: (example: Example, logProbs: Float32Array, values: Float32Array, index: number) => void,
  chunk = 32,
  sampling?: SamplingDistribution,
): void {
  for (let start = 0; start < examples.length; start += chunk) {
    const rows = examples.slice(start, start + chunk);
    const inputs = model.prepare(rows, 'right');
    try {
      const [logProbs, values] = tf.tidy(() => {
        const output = model.logProbsAndValues(inputs, { entropies: false, ...(sampling ? { sampling } : {}) });
        return [output.logProbs.dataSync() as Float32Array, output.values.dataSync() as Float32Array] as const;
      });
      rows.forEach((example, row) => {
        const from = row * inputs.length;
        const to = from + example.tokens.length;
        use(example, logProbs.subarray(from, to), values.subarray(from, to), start + row);
      });
    } finally {
      inputs.dispose();
    }
  }
}

/**
 * Log-probs of the policy as it is (the rollout's weights), under the sampling distribution, on
 * the examples that have none of the sampler's: their old log-probs (verl recomputes them the same way).
 */
export function attachOldLogProbs(model: VisionLanguageModel, examples: PolicyExample[], sampling?: SamplingDistribution): void {
  attachLogProbs(model, examples.filter((example) => example.oldLogProbs === undefined), 'oldLogProbs', sampling);
}

/** Log-probs of the frozen reference policy on every example (for the KL term, under the distribution the policy's are taken in), 32 rows at a time. */
export function attachReferenceLogProbs(reference: VisionLanguageModel, examples: PolicyExample[], sampling?: SamplingDistribution): void {
  attachLogProbs(reference, examples, 'referenceLogProbs', sampling);
}

function attachLogProbs(model: VisionLanguageModel, examples: PolicyExample[], field: 'oldLogProbs' | 'referenceLogProbs', sampling: SamplingDistribution | undefined): void {
  forEachForward(model, examples, (example, logProbs) => (example[field] = Array.from(logProbs)), 32, sampling);
}

/**
 * One round of updates on a rollout batch: the data-parallel trainer, optimizer and loss, the
 * examples, the learning rate, how many passes and mini-batches, and each mini-batch's loss
 * context.
 */
export interface PolicyUpdateSettings<Example, Context> {
  parallel: DataParallel;
  optimizer: tf.AdamOptimizer;
  loss: LossReference;
  examples: readonly Example[];
  learningRate: number;
  /** Passes over the examples (default 1). */
  epochs?: number;
  /** Updates per pass (default 1; at most one per example). */
  miniBatches?: number;
  maxGradientNorm?: number;
  /** Shuffles the examples of each epoch (forked per epoch: `epoch-<e>`). */
  rng: Rng;
  /** The loss context of one mini-batch (its batch-wide totals). */
  context: (batch: Example[]) => Context;
  /** One update on a mini-batch (default: `parallel.step` with the optimizer). */
  update?: (batch: Example[], context: Context) => Promise<DataParallelStepResult>;
}

/**
 * What a round of updates did: mean metrics over its updates, how many updates, and the tokens
 * differentiated.
 */
export interface PolicyUpdateResult {
  /**
   * Means over the updates of the loss, the gradient norm and the loss's metrics; `logprobGap` is
   * the first update's (on the rollout's weights: the sampler–trainer gap, not the policy's drift).
   */
  metrics: Record<string, number>;
  updates: number;
  /** Tokens differentiated, all updates together. */
  tokens: number;
}

/**
 * `epochs` passes over a rollout batch, each shuffled and cut into `miniBatches` interleaved
 * mini-batches, one data-parallel optimizer step each (PPO's inner loop, GRPO's too).
 */
export async function runPolicyUpdates<Example extends { tokens: readonly number[] }, Context>(
  settings: PolicyUpdateSettings<Example, Context>,
): Promise<PolicyUpdateResult> {
  const { examples, parallel, optimizer, loss } = settings;
  const totals: Record<string, number> = {};
  let updates = 0;
  let tokens = 0;
  if (examples.length > 0) {
    setLearningRate(optimizer, settings.learningRate);
    const epochs = settings.epochs ?? 1;
    const miniBatches = Math.min(settings.miniBatches ?? 1, examples.length);
    for (let epoch = 0; epoch < epochs; epoch++) {
      const order = settings.rng.fork(`epoch-${epoch}`).shuffle(examples.map((_, index) => index));
      for (let part = 0; part < miniBatches; part++) {
        const batch = order.filter((_, position) => position % miniBatches === part).map((index) => examples[index]!);
        const context = settings.context(batch);
        const result = settings.update
          ? await settings.update(batch, context)
          : await parallel.step(optimizer, loss, batch, context, { maxGradientNorm: settings.maxGradientNorm ?? 1 });
        totals['loss'] = (totals['loss'] ?? 0) + result.loss;
        totals['gradientNorm'] = (totals['gradientNorm'] ?? 0) + result.gradientNorm;
        for (const [name, value] of Object.entries(result.metrics)) totals[name] = (totals[name] ?? 0) + (name === 'logprobGap' && updates > 0 ? 0 : value);
        tokens += batch.reduce((sum, example) => sum + example.tokens.length, 0);
        updates++;
      }
    }
  }
  const metrics = Object.fromEntries(Object.entries(totals).map(([name, value]) => [name, name === 'logprobGap' ? value : value / Math.max(updates, 1)]));
  return { metrics, updates, tokens };
}
