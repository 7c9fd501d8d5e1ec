import type { RunEvent } from '@saccade/spec';
import { evaluatePolicy, evaluationMetrics, type PolicyEvaluation } from './evaluate-policy';
import type { PlayedBatch, PolicyEpisodes } from './policy-episodes';
import { recordedEvaluation, type EpisodeRecorder } from './training-record';
import { seedRange, type SeedRange } from './seed-range';

export type TimedEvaluation = PolicyEvaluation & { step: number; seconds: number };

/**
 * The trainers' periodic held-out evaluation: greedy episodes on the evaluation seeds (the rollout
 * manager, the trainer's threads), recorded in `evaluations` and reported as an `eval-end` event
 * with `seconds()` (the time since the phase started); the settings' recorder stores the episodes
 * of the evaluations it wants.
 */
export function createHeldOutEvaluator(
  episodes: PolicyEpisodes,
  settings: { evalSeeds: SeedRange; recorder?: EpisodeRecorder },
  seconds: () => number,
  onEvent: (event: RunEvent) => void,
): { evaluations: TimedEvaluation[]; evaluate: (step: number) => Promise<PolicyEvaluation> } {
  const evaluations: TimedEvaluation[] = [];
  const seeds = seedRange(settings.evalSeeds);
  const evaluate = async (step: number): Promise<PolicyEvaluation> => {
    const recorder = settings.recorder;
    const record = recorder?.wants('eval', step) ? (batch: PlayedBatch) => recorder.record(recordedEvaluation(batch.trajectories, step), batch.images) : undefined;
    const result = await evaluatePolicy(episodes, seeds, { step, ...(record ? { onPlayed: record } : {}) });
    const elapsed = seconds();
    evaluations.push({ ...result, step, seconds: elapsed });
    onEvent({ type: 'eval-end', time: new Date().toISOString(), step, metrics: { ...evaluationMetrics(result), seconds: elapsed } });
    return result;
  };
  return { evaluations, evaluate };
}
