import type { Rng } from '@saccade/core';
import { createAdamOptimizer, DataParallel, type SamplingDistribution, type VisionLanguageModel } from '@saccade/models';
import type { RunEvent } from '@saccade/spec';
import type * as tf from '@tensorflow/tfjs-core';
import type { PolicyEvaluation } from './evaluate-policy';
import { evaluationMetrics, summarizeTrajectories } from './evaluate-policy';
import { createHeldOutEvaluator, type TimedEvaluation } from './held-out-evaluator';
import { rolloutDiagnostics } from './rollout-diagnostics';
import { createPolicyEpisodes, type PlayedBatch, type PolicyEpisodes } from './policy-episodes';
import { cloneModel, meanRewardTerms, samplingDistribution } from './policy-training';
import { assertDisjointSeeds, seedRange } from './seed-range';
import type { PolicyPhaseSettings } from './policy-phase-settings';
import { endTrainingStep, saveTrainingCheckpoint, type TrainingCheckpointMetadata } from './training-checkpoint';
import { recordedEpisodes, type UsedEpisode } from './training-record';
import { warmupConstantLearningRate } from './learning-rate-schedule';


/**
 * What a policy-gradient phase (GRPO, PPO) sets up, reports and tears down alike: the optimizer,
 * the threads, the frozen KL reference, the held-out evaluator, the sampled training episodes, the
 * rollout and update events, the end of each step and of the phase.
 */
export interface PolicyPhase {
  now: () => string;
  log: (message: string) => void;
  trainSeeds: number[];
  optimizer: tf.AdamOptimizer;
  parallel: DataParallel;
  /** The starting policy, kept only when the KL term is on. */
  reference: VisionLanguageModel | undefined;
  klCoefficient: number;
  /** The distribution the phase's rollouts sample from; the losses score sampled tokens under it. */
  sampling: SamplingDistribution;
  /** Seconds since the phase started. */
  seconds: () => number;
  /** The learning rate of the update after `step` steps (the warm-up's, then `learningRate`). */
  learningRate: (step: number) => number;
  evaluations: TimedEvaluation[];
  evaluate: (step: number) => Promise<PolicyEvaluation>;
  /** How the phase plays and tokenises episodes. */
  episodes: PolicyEpisodes;
  /**
   * Step `step`'s training episodes with the sampling policy, `groupSize` per seed; the sampler's
   * seed is drawn from `rng`. Ids start `s<step + 1>-` (`batchId` replaces that prefix).
   */
  play: (seeds: readonly number[], groupSize: number, rng: Rng, step: number, batchId?: string) => Promise<PlayedBatch>;
  /**
   * Hands step `step`'s episodes, as the trainer used them, to the settings' recorder when it wants
   * that step (the run's episode store); the time it took is reported with the rollout (`recordSeconds`).
   */
  record: (phase: 'grpo' | 'ppo', step: number, used: readonly UsedEpisode[], batch: PlayedBatch) => Promise<void>;
  /** The `rollout-end` event of step `step + 1`, with the trainer's own batch metrics (`extra`, e.g. GRPO's uniform groups). */
  reportRollout: (step: number, batch: PlayedBatch, trainedSequences: number, rolloutSeconds: number, extra?: Record<string, number>) => void;
  /** The `update-end` event: the update's metrics, then the rate and timings every phase reports. */
  reportUpdate: (step: number, metrics: Record<string, number>, tokens: number, rolloutSeconds: number, updateSeconds: number) => void;
  /** Evaluation, time limit, target, pause hook and checkpoint after a step; true when the phase stops. */
  endStep: (step: number) => Promise<boolean>;
  /** The checkpoint the phase ends with. */
  finish: (step: number) => Promise<void>;
  /** Frees what the phase made (the optimizer only when the caller did not pass one). */
  close: () => Promise<void>;
}

export async function startPolicyPhase(
  model: VisionLanguageModel,
  phase: TrainingCheckpointMetadata['phase'],
  settings: PolicyPhaseSettings,
  onEvent: (event: RunEvent) => void,
): Promise<PolicyPhase> {
  const now = (): string => new Date().toISOString();
  assertDisjointSeeds(settings.trainSeeds, settings.evalSeeds);
  const trainSeeds = seedRange(settings.trainSeeds);
  const optimizer = settings.optimizer ?? createAdamOptimizer({ learningRate: settings.learningRate });
  const parallel = await DataParallel.create(model, settings.workers === undefined ? {} : { workers: settings.workers });
  const klCoefficient = settings.klCoefficient ?? 0;
  const reference = klCoefficient > 0 ? cloneModel(model) : undefined;
  const episodes = await createPolicyEpisodes(model, settings, parallel, onEvent);
  const started = performance.now();
  const seconds = (): number => (performance.now() - started) / 1000;
  const phaseStart = settings.phaseStart ?? settings.startStep ?? 0;
  const learningRate = (step: number): number => warmupConstantLearningRate(step - phaseStart, { peak: settings.learningRate, warmupSteps: settings.warmupSteps ?? 0 });
  const { evaluations, evaluate } = createHeldOutEvaluator(episodes, settings, seconds, onEvent);
  let recordSeconds = 0;
  return {
    now,
    log: (message) => onEvent({ type: 'log', time: now(), level: 'info', message }),
    trainSeeds,
    optimizer,
    parallel,
    reference,
    klCoefficient,
    sampling: samplingDistribution(model, settings.temperature ?? 1),
    seconds,
    learningRate,
    evaluations,
    evaluate,
    episodes,
    play: (seeds, groupSize, rng, step, batchId) =>
      episodes.play(seeds, { groupSize, temperature: settings.temperature ?? 1, seed: Math.floor(rng.next() * 2 ** 31), step: step + 1, ...(batchId === undefined ? {} : { batchId }) }),
    record: async (phase, step, used, batch) => {
      const recorder = settings.recorder;
      if (recorder === undefined || !recorder.wants(phase, step)) return;
      const started = performance.now();
      await recorder.record(recordedEpisodes(used, phase, step, episodes.tokenizer), batch.images);
      recordSeconds += (performance.now() - started) / 1000;
    },
    reportRollout: (step, batch, trainedSequences, rolloutSeconds, extra = {}) => {
      const summary = summarizeTrajectories(batch.trajectories);
      onEvent({
        type: 'rollout-end',
        time: now(),
        step: step + 1,
        episodes: batch.trajectories.length,
        metrics: {
          ...withoutEpisodes(evaluationMetrics(summary)),
          trainedSequences,
          episodesPerSecond: batch.trajectories.length / rolloutSeconds,
          failedEpisodes: batch.trajectories.filter((trajectory) => trajectory.error !== undefined).length,
          ...meanRewardTerms(batch.trajectories),
          ...rolloutDiagnostics(batch.trajectories),
          ...extra,
          ...(settings.recorder === undefined ? {} : { recordSeconds }),
        },
      });
      recordSeconds = 0;
    },
    reportUpdate: (step, metrics, tokens, rolloutSeconds, updateSeconds) =>
      onEvent({
        type: 'update-end',
        time: now(),
        step,
        metrics: {
          ...metrics,
          learningRate: learningRate(step - 1),
          tokensPerSecond: updateSeconds > 0 ? tokens / updateSeconds : 0,
          rolloutSeconds,
          updateSeconds,
          seconds: seconds(),
        },
      }),
    endStep: (step) => endTrainingStep(step, phase, settings, { model, optimizer, seconds, evaluate, onEvent }),
    finish: async (step) => {
      if (!settings.checkpointFolder) return;
      await saveTrainingCheckpoint(model, optimizer, settings.checkpointFolder, { ...settings.checkpointMetadata, step, phase, complete: true }, onEvent);
    },
    close: async () => {
      if (!settings.optimizer) optimizer.dispose();
      reference?.dispose();
      await parallel.close();
    },
  };
}

/** The batch's metrics; the event carries the episode count itself. */
function withoutEpisodes({ episodes: _episodes, ...metrics }: Record<string, number>): Record<string, number> {
  return metrics;
}
