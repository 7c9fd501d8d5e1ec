import type { DataParallel, VisionLanguageModel } from '@saccade/models';
import type { RunEvent } from '@saccade/spec';
import { evaluatePolicy, type PolicyEvaluation } from './evaluate-policy';
import type { PolicyView } from './policy-messages';

export type TimedEvaluation = PolicyEvaluation & { step: number; seconds: number };

export interface HeldOutEvaluatorSettings {
  envId: string;
  envOptions?: Record<string, unknown>;
  view: PolicyView;
  maxTurns: number;
  seeds: readonly number[];
  parallel: DataParallel;
  signal?: AbortSignal;
  /** Seconds since the phase started (what `eval-end` reports). */
  seconds: () => number;
}

/**
 * The trainers' periodic held-out evaluation: greedy episodes on the evaluation seeds, recorded in
 * `evaluations` and reported as an `eval-end` event.
 */
export function createHeldOutEvaluator(
  model: VisionLanguageModel,
  settings: HeldOutEvaluatorSettings,
  onEvent: (event: RunEvent) => void,
): { evaluations: TimedEvaluation[]; evaluate: (step: number) => Promise<PolicyEvaluation> } {
  const evaluations: TimedEvaluation[] = [];
  const evaluate = async (step: number): Promise<PolicyEvaluation> => {
    const result = await evaluatePolicy(model, {
      envId: settings.envId,
      envOptions: settings.envOptions ?? {},
      seeds: settings.seeds,
      view: settings.view,
      maxTurns: settings.maxTurns,
      parallel: settings.parallel,
      ...(settings.signal ? { signal: settings.signal } : {}),
    });
    const seconds = settings.seconds();
    evaluations.push({ ...result, step, seconds });
    onEvent({ type: 'eval-end', time: new Date().toISOString(), step, metrics: { ...result, seconds } });
    return result;
  };
  return { evaluations, evaluate };
}
