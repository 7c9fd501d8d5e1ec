import type { Env, StepResult } from '@saccade/spec';
import { EnvWrapper } from './env-wrapper';

/** Reward terms after weighting, and their sum (the step's reward). */
export interface WeightedRewardTerms {
  /** Each term times its weight. */
  terms: Record<string, number>;
  /** The sum of the weighted terms. */
  reward: number;
}

/**
 * Multiplies named reward terms by their weights (missing weights count as `defaultWeight`) and
 * sums them.
 *
 * @example
 * weightedRewardTerms({ format: 0.5, success: 10 }, { format: 2 }) // { terms: { format: 1, success: 10 }, reward: 11 }
 */
export function weightedRewardTerms(
  terms: Record<string, number>,
  weights: Record<string, number>,
  defaultWeight = 1,
): WeightedRewardTerms {
  const weighted: Record<string, number> = {};
  let reward = 0;
  for (const [name, value] of Object.entries(terms)) {
    const weight = Object.hasOwn(weights, name) ? weights[name]! : defaultWeight;
    const term = value * weight;
    weighted[name] = term;
    reward += term;
  }
  return { terms: weighted, reward };
}

/** The weights `RewardTerms` applies to an env's named reward terms. */
export interface RewardTermsSettings {
  /** Weight per term name. */
  weights?: Record<string, number>;
  /** Weight of terms not listed in `weights` (default 1; 0 drops them from the reward). */
  defaultWeight?: number;
  /** More terms computed from each step (e.g. a length penalty), weighted like the others. */
  extraTerms?: (result: StepResult, action: string) => Record<string, number>;
}

/**
 * Re-weights the env's named reward terms and recomputes the reward as their sum, so a user sees
 * why a reward was given. A step without `info.rewardTerms` counts as one term, `reward`. The
 * unweighted terms stay in `info.unweightedRewardTerms`.
 */
export class RewardTerms extends EnvWrapper {
  readonly #settings: RewardTermsSettings;

  constructor(env: Env, settings: RewardTermsSettings) {
    super(env);
    this.#settings = settings;
  }

  override async step(action: string): Promise<StepResult> {
    const result = await this.env.step(action);
    const base = result.info.rewardTerms ?? { reward: result.reward };
    const unweighted = { ...base, ...this.#settings.extraTerms?.(result, action) };
    const { terms, reward } = weightedRewardTerms(unweighted, this.#settings.weights ?? {}, this.#settings.defaultWeight ?? 1);
    return { ...result, reward, info: { ...result.info, rewardTerms: terms, unweightedRewardTerms: unweighted } };
  }
}
