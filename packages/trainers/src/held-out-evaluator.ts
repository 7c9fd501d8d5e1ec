import type { RunEvent } from '@saccade/spec';
import { evaluatePolicy, evaluationMetrics, type PolicyEvaluation } from './evaluate-policy';
import type { PolicyEpisodes } from './policy-episodes';
import { seedRange, type SeedRange } from './seed-range';

export type TimedEvaluation = PolicyEvaluation & { step: number; seconds: number };

/**
 * The trainers' periodic held-out evaluation: greedy episodes on the evaluation seeds (the rollout
 * manager, the trainer's threads), recorded in `evaluations` and reported as an `eval-end` event
 * with `seconds()` (the time since the phase started).
 */
export function createHeldOutEvaluator(
  episodes: PolicyEpisodes,
  settings: { evalSeeds: SeedRange },
  seconds: () => number,
  onEvent: (event: RunEvent) => void,
): { evaluations: TimedEvaluation[]; evaluate: (step: number) => Promise<PolicyEvaluation> } {
  const evaluations: TimedEvaluation[] = [];
  const seeds = seedRange(settings.evalSeeds);
  const evaluate = async (step: number): Promise<PolicyEvaluation> => {
    const result = await evaluatePolicy(episodes, seeds, { step });
    const elapsed = seconds();
    evaluations.push({ ...result, step, seconds: elapsed });
    onEvent({ type: 'eval-end', time: new Date().toISOString(), step, metrics: { ...evaluationMetrics(result), seconds: elapsed } });
    return result;
  };
  return { evaluations, evaluate };
}
