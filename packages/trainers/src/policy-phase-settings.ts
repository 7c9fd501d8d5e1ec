import type * as tf from '@tensorflow/tfjs-core';
import type { EvalSampling } from './evaluate-policy';
import type { TimedEvaluation } from './held-out-evaluator';
import type { PolicyLossContext } from './losses/policy-loss';
import type { EpisodeSettings } from './policy-episodes';
import type { SeedRange } from './seed-range';

/** The settings GRPO and PPO share: seeds, steps, the optimiser, the policy loss, evaluation, checkpoints. */
export interface PolicyPhaseSettings extends EpisodeSettings {
  trainSeeds: SeedRange;
  evalSeeds: SeedRange;
  /** Policy updates (each: one rollout batch, then `epochs` passes over it). */
  steps: number;
  learningRate: number;
  /**
   * Steps over which the learning rate rises linearly to `learningRate` (default 0: the full rate
   * from the first update). A phase starts a fresh Adam, whose first updates move every weight by
   * about the full rate whatever its gradient's size: on a policy's noisy gradients that is a
   * random step of every weight, which a warm-up keeps small while the moments fill.
   */
  warmupSteps?: number;
  /** The step this phase began at, for the warm-ups (default startStep; a resumed run passes its phase's start). */
  phaseStart?: number;
  /** Sampling temperature of the rollouts (default 1). */
  temperature?: number;
  /**
   * An episode the turn cap cut before the env ended it gets no gradient (Mini-o3's over-turn
   * masking) instead of a low score that punishes looking longer; it still counts in its group's
   * mean and std. Default false.
   */
  maskTruncatedEpisodes?: boolean;
  clipLow?: number;
  clipHigh?: number;
  /** β of the k3 KL loss to the starting policy (default 0: no reference model is kept). */
  klCoefficient?: number;
  entropyCoefficient?: number;
  /**
   * The policy gradient on the top-ρ entropy tokens of each shard only (TRL's `top_entropy_quantile`,
   * "Beyond the 80/20 Rule"): near-certain tokens (a call's syntax) get no policy gradient, so
   * Adam's per-weight normalisation does not turn their advantages' noise into full-rate steps.
   * Default 1: every token.
   */
  topEntropyQuantile?: number;
  aggregation?: PolicyLossContext['aggregation'];
  /** 'token-sum-norm''s constant (default maxTokens × maxTurns: the longest episode's generated tokens). */
  lengthNormalizer?: number;
  /**
   * The largest `logprobGap` (mean |sampler − trainer| log-prob over the trained tokens, measured
   * every step) before the run stops with an error (default 1e-3; Infinity: no check).
   */
  maxLogprobGap?: number;
  /** PPO epochs over each rollout batch and mini-batches per epoch (default 1 and 1: on-policy). */
  epochs?: number;
  miniBatches?: number;
  maxGradientNorm?: number;
  evalEvery: number;
  /** A sampled held-out evaluation beside each greedy one (mean@n at a temperature; none by default). */
  evalSampling?: EvalSampling;
  /** Steps already done (a resumed run): step numbers, seeds and samples continue from here. */
  startStep?: number;
  targetSuccess?: number;
  timeLimitSeconds?: number;
  seed: number;
  checkpointFolder?: string;
  /** Checkpoint every this many steps (default: at the end only). */
  checkpointEvery?: number;
  /** Merged into every checkpoint's metadata (the runner records where a phase started). */
  checkpointMetadata?: Record<string, unknown>;
  /**
   * Awaited between steps: the runner pauses here (the TUI's pause key) and asks for a checkpoint
   * of the current step (its checkpoint key).
   */
  betweenSteps?: (step: number) => Promise<{ checkpoint?: boolean } | void>;
  /** An optimizer to continue with (a resumed run); otherwise a fresh Adam. */
  optimizer?: tf.AdamOptimizer;
  workers?: number;
  signal?: AbortSignal;
}

/** What a GRPO or PPO phase returns. */
export interface PolicyPhaseResult {
  steps: number;
  seconds: number;
  evaluations: TimedEvaluation[];
}
