import type { RunEvent } from '@saccade/spec';
import { checkEvalSampling, evaluatePolicy, evaluationMetrics, type EvalSampling, type PolicyEvaluation } from './evaluate-policy';
import type { PlayedBatch, PolicyEpisodes } from './policy-episodes';
import { recordedEvaluation, type EpisodeRecorder } from './training-record';
import { seedRange, type SeedRange } from './seed-range';

/** An evaluation at a step: greedy, with the sampled one beside it when the settings ask for it. */
export type TimedEvaluation = PolicyEvaluation & { step: number; seconds: number; sampled?: PolicyEvaluation & EvalSampling };

/**
 * The trainers' periodic held-out evaluation: greedy episodes on the evaluation seeds (the rollout
 * manager, the trainer's threads), recorded in `evaluations` and reported as an `eval-end` event
 * with `seconds()` (the time since the phase started); the settings' recorder stores the episodes
 * of the evaluations it wants. With `evalSampling`, a sampled evaluation follows the greedy one and
 * its metrics join the event's as `sampled<Metric>` (`sampledSuccess`: mean@n), with
 * `sampledTemperature` and `sampledSamples`.
 */
export function createHeldOutEvaluator(
  episodes: PolicyEpisodes,
  settings: { evalSeeds: SeedRange; recorder?: EpisodeRecorder; evalSampling?: EvalSampling },
  seconds: () => number,
  onEvent: (event: RunEvent) => void,
): { evaluations: TimedEvaluation[]; evaluate: (step: number) => Promise<PolicyEvaluation> } {
  if (settings.evalSampling) checkEvalSampling(settings.evalSampling);
  const evaluations: TimedEvaluation[] = [];
  const seeds = seedRange(settings.evalSeeds);
  const evaluate = async (step: number): Promise<PolicyEvaluation> => {
    const recorder = settings.recorder;
    const record = recorder?.wants('eval', step) ? (batch: PlayedBatch) => recorder.record(recordedEvaluation(batch.trajectories, step), batch.images) : undefined;
    const result = await evaluatePolicy(episodes, seeds, { step, ...(record ? { onPlayed: record } : {}) });
    const sampling = settings.evalSampling;
    const sampled = sampling ? { ...(await evaluatePolicy(episodes, seeds, { step, sampling })), ...sampling } : undefined;
    const elapsed = seconds();
    evaluations.push({ ...result, step, seconds: elapsed, ...(sampled ? { sampled } : {}) });
    onEvent({ type: 'eval-end', time: new Date().toISOString(), step, metrics: { ...evaluationMetrics(result), ...(sampled ? sampledMetrics(sampled) : {}), seconds: elapsed } });
    return result;
  };
  return { evaluations, evaluate };
}

/** A sampled evaluation's metrics as `sampled<Metric>` (`sampledSuccess`, `sampledSuccessWithHit`, …), with its temperature and samples. */
export function sampledMetrics({ temperature, samples, ...evaluation }: PolicyEvaluation & EvalSampling): Record<string, number> {
  const metrics = Object.entries(evaluationMetrics(evaluation)).map(([key, value]) => [`sampled${key[0]!.toUpperCase()}${key.slice(1)}`, value]);
  return { ...Object.fromEntries(metrics), sampledTemperature: temperature, sampledSamples: samples };
}
