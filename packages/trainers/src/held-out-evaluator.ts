import type { DataParallel, VisionLanguageModel } from '@saccade/models';
import type { RunEvent } from '@saccade/spec';
import { evaluatePolicy, type PolicyEvaluation } from './evaluate-policy';
import type { PolicyView } from './policy-messages';
import { seedRange, type SeedRange } from './seed-range';

export type TimedEvaluation = PolicyEvaluation & { step: number; seconds: number };

/** What a trainer's settings say about its held-out evaluation (every trainer's settings have these). */
export interface HeldOutEvaluatorSettings {
  envId: string;
  envOptions?: Record<string, unknown>;
  view: PolicyView;
  maxTurns: number;
  evalSeeds: SeedRange;
  signal?: AbortSignal;
}

/**
 * The trainers' periodic held-out evaluation: greedy episodes on the evaluation seeds, on the
 * trainer's threads, recorded in `evaluations` and reported as an `eval-end` event with `seconds()`
 * (the time since the phase started).
 */
export function createHeldOutEvaluator(
  model: VisionLanguageModel,
  settings: HeldOutEvaluatorSettings,
  parallel: DataParallel,
  seconds: () => number,
  onEvent: (event: RunEvent) => void,
): { evaluations: TimedEvaluation[]; evaluate: (step: number) => Promise<PolicyEvaluation> } {
  const evaluations: TimedEvaluation[] = [];
  const seeds = seedRange(settings.evalSeeds);
  const evaluate = async (step: number): Promise<PolicyEvaluation> => {
    const result = await evaluatePolicy(model, {
      envId: settings.envId,
      envOptions: settings.envOptions ?? {},
      seeds,
      view: settings.view,
      maxTurns: settings.maxTurns,
      parallel,
      ...(settings.signal ? { signal: settings.signal } : {}),
    });
    const elapsed = seconds();
    evaluations.push({ ...result, step, seconds: elapsed });
    onEvent({ type: 'eval-end', time: new Date().toISOString(), step, metrics: { ...result, seconds: elapsed } });
    return result;
  };
  return { evaluations, evaluate };
}
