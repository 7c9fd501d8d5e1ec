import { createRng } from '@saccade/core';
import {
  clipByGlobalNorm,
  createAdamOptimizer,
  type DataParallel,
  type DataParallelStepResult,
  type LossReference,
  type SamplingDistribution,
  type VisionLanguageModel,
} from '@saccade/models';
import * as tf from '@tensorflow/tfjs-core';
import type { RunEvent } from '@saccade/spec';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { computeBiLevelGaeBatch, computeMaskedGaeBatch, computeTurnWiseGaeBatch, maskedMoments, type TurnSequence } from './advantages/index';
import type { PpoExample, PpoLossContext } from './losses/ppo-loss';
import type { PlayedBatch, PolicyEpisodes } from './policy-episodes';
import { startPolicyPhase } from './policy-phase';
import type { PolicyPhaseResult, PolicyPhaseSettings } from './policy-phase-settings';
import type { TrainingSequence } from '@saccade/rollout';
import { attachReferenceLogProbs, checkLogprobGap, DEFAULT_MAX_LOGPROB_GAP, forEachForward, maskedTokens, policyLossContext, runPolicyUpdates } from './policy-training';
import type { UsedEpisode } from './training-record';

/** Which GAE turns the critic's values and the turns' rewards into advantages (docs/advantages.md). */
export type AdvantageEstimator = 'bi-level' | 'masked' | 'turn-wise';

/** How PPO's advantages are computed from an episode's rewards and values. */
export interface PpoAdvantageSettings {
  /** 'bi-level' (VAGEN-Full, default), 'masked' (VAGEN-Base) or 'turn-wise'. */
  advantageEstimator?: AdvantageEstimator;
  /** γ_turn of bi-level and turn-wise GAE (default 0.95, VAGEN's runs use 0.95–0.99). */
  gammaTurn?: number;
  /** γ_token of bi-level GAE and the γ of masked GAE (default 1.0, as VAGEN). */
  gammaToken?: number;
  /** λ (default 1.0, as VAGEN). */
  lambda?: number;
  /** Whiten the advantages over the batch's masked tokens (default true, as VAGEN; turn-wise: over the turns). */
  whiten?: boolean;
  /** Multiplies the env's rewards before GAE (default 1); keeps the critic's targets in a range the value head reaches. */
  rewardScale?: number;
  /** Over-turn masking (Mini-o3): an episode the turn cap cut before the env ended it gets no gradient. Default false. */
  maskTruncatedEpisodes?: boolean;
}

/**
 * What a PPO phase plays each step and how it trains the critic (value loss weight and clip,
 * warm-up, the value head's learning rate), besides its advantage and phase settings.
 */
export interface TrainPpoSettings
  extends PolicyPhaseSettings,
    PpoAdvantageSettings {
  /** Episodes played per step, each on a training seed drawn at random. */
  episodesPerStep: number;
  /** Weight of the value loss against the policy loss (default 0.5). */
  valueCoefficient?: number;
  /** Clip range of the value loss around the rollout's values (default 0.5, verl's cliprange_value; 0: unclipped). */
  valueClip?: number;
  /** The first steps of the phase train the critic only (default 0): a fresh value head is noise. */
  valueWarmupSteps?: number;
  /**
   * A learning rate of its own for the value head (VAGEN: critic 10× the actor's), applied by a
   * second Adam that checkpoints do not keep. Default: the value head trains with `learningRate`.
   * The value head starts at zero and Adam moves each weight by about the learning rate per
   * update, so at a policy's rate (1e-4) the critic stays near 0 for many steps.
   */
  criticLearningRate?: number;
}

/** What a trainPpo phase did: its steps, its seconds, and each held-out evaluation. */
export type TrainPpoResult = PolicyPhaseResult;

const requireHere = createRequire(import.meta.url);

/** The PPO loss, by module, so that data-parallel worker threads can import it. */
export function ppoLossReference(): LossReference {
  return { module: pathToFileURL(requireHere.resolve('@saccade/trainers/losses')).href, export: 'ppoShardLoss' };
}

/**
 * PPO with a critic (the model's value head) on the built-in model (REFERENCE §6): every step plays
 * `episodesPerStep` training seeds with the sampling policy, puts each turn's reward on the last
 * token the policy wrote in that turn, reads the value head on the played sequences, turns both
 * into advantages and returns with bi-level (default), masked or turn-wise GAE, whitens the
 * advantages over the batch, and runs `epochs` × `miniBatches` updates of the clipped policy loss
 * plus the (clipped) value loss, optionally with an entropy bonus and k3 KL to the starting policy,
 * on every thread. A step's seeds and samples depend on (seed, step) only.
 */
export async function trainPpo(
  model: VisionLanguageModel,
  settings: TrainPpoSettings,
  onEvent: (event: RunEvent) => void = () => {},
): Promise<TrainPpoResult> {
  if (!Number.isSafeInteger(settings.episodesPerStep) || settings.episodesPerStep < 1) {
    throw new RangeError(`PPO needs episodesPerStep ≥ 1; got ${settings.episodesPerStep}.`);
  }
  const phase = await startPolicyPhase(model, 'ppo', settings, onEvent);
  const { trainSeeds, optimizer, parallel, reference, klCoefficient } = phase;
  const loss = ppoLossReference();
  const criticLearningRate = settings.criticLearningRate;
  const critic = criticLearningRate === undefined ? undefined : createAdamOptimizer({ learningRate: criticLearningRate });
  const estimator = settings.advantageEstimator ?? 'bi-level';
  phase.log(`PPO (${estimator} GAE) on ${parallel.threadCount} thread(s): ${settings.episodesPerStep} episodes per step`);

  let step = settings.startStep ?? 0;
  const warmupEnd = (settings.phaseStart ?? step) + (settings.valueWarmupSteps ?? 0);
  try {
    if (step === 0) await phase.evaluate(0);
    while (step < settings.steps) {
      settings.signal?.throwIfAborted();
      const rolloutStarted = performance.now();
      const stepRng = createRng(settings.seed).fork(`ppo-step-${step}`);
      const seeds = Array.from({ length: settings.episodesPerStep }, () => trainSeeds[Math.floor(stepRng.next() * trainSeeds.length)]!);
      const batch = await phase.play(seeds, 1, stepRng, step);
      const { examples, statistics, used } = await ppoBatch(model, phase.episodes, batch, settings, phase.sampling);
      await phase.record('ppo', step + 1, used, batch);
      if (reference) attachReferenceLogProbs(reference, examples, phase.sampling);
      const rolloutSeconds = (performance.now() - rolloutStarted) / 1000;
      phase.reportRollout(step, batch, examples.length, rolloutSeconds);

      const updateStarted = performance.now();
      const warmingUp = step < warmupEnd;
      const { metrics, tokens } = await runPolicyUpdates({
        parallel,
        optimizer,
        loss,
        examples,
        learningRate: phase.learningRate(step),
        epochs: settings.epochs ?? 1,
        miniBatches: settings.miniBatches ?? 1,
        maxGradientNorm: settings.maxGradientNorm ?? 1,
        rng: stepRng,
        context: (batch): PpoLossContext => ({
          ...policyLossContext(batch, settings, klCoefficient, 0.2, phase.sampling),
          valueTokenCount: batch.reduce((sum, example) => sum + maskedTokens({ lossMask: example.valueMask }), 0),
          valueCoefficient: settings.valueCoefficient ?? 0.5,
          valueClip: settings.valueClip ?? 0.5,
          policyCoefficient: warmingUp ? 0 : 1,
        }),
        ...(critic
          ? { update: (batch: PpoExample[], context: PpoLossContext) => actorCriticStep(parallel, model, optimizer, critic, loss, batch, context, settings.maxGradientNorm ?? 1) }
          : {}),
      });
      step++;
      const updateSeconds = (performance.now() - updateStarted) / 1000;
      phase.reportUpdate(step, { ...metrics, ...statistics, valueWarmup: warmingUp ? 1 : 0 }, tokens, rolloutSeconds, updateSeconds);
      checkLogprobGap(step, statistics, settings.maxLogprobGap ?? DEFAULT_MAX_LOGPROB_GAP);
      if (await phase.endStep(step)) break;
    }
    await phase.finish(step);
  } finally {
    critic?.dispose();
    await phase.close();
  }
  return { steps: step, seconds: phase.seconds(), evaluations: phase.evaluations };
}

/**
 * One update with separate optimizers: data-parallel gradients, one global-norm clip over all of
 * them (as `DataParallel.step`), then the critic's Adam on the value head and the actor's on the rest.
 */
async function actorCriticStep(
  parallel: DataParallel,
  model: VisionLanguageModel,
  actor: tf.AdamOptimizer,
  critic: tf.AdamOptimizer,
  loss: LossReference,
  batch: readonly PpoExample[],
  context: PpoLossContext,
  maxGradientNorm: number,
): Promise<DataParallelStepResult> {
  const result = await parallel.computeGradients(loss, batch, context);
  const clipped = clipByGlobalNorm(result.gradients, Number.isFinite(maxGradientNorm) ? maxGradientNorm : Number.MAX_VALUE);
  try {
    const names = model.weightNames;
    const named = model.trainableVariables.map((variable, index) => ({ name: variable.name, tensor: clipped.gradients[index]!, value: names[index]!.startsWith('value.') }));
    actor.applyGradients(named.filter((entry) => !entry.value).map(({ name, tensor }) => ({ name, tensor })));
    critic.applyGradients(named.filter((entry) => entry.value).map(({ name, tensor }) => ({ name, tensor })));
    return { loss: result.loss, gradientNorm: clipped.norm.dataSync()[0] ?? Number.NaN, metrics: result.metrics };
  } finally {
    tf.dispose([clipped.norm, ...clipped.gradients, ...result.gradients]);
  }
}

/** What a rollout batch says about the critic and the advantages (reported with each update). */
export interface PpoBatchStatistics extends Record<string, number> {
  /** Mean and std of the advantages before whitening, over the masked tokens. */
  advantageMean: number;
  advantageStd: number;
  /** Mean return and mean value over the value-masked tokens. */
  returnMean: number;
  valueMean: number;
  /** 1 − Var(R − V) / Var(R) over the value-masked tokens (0 when the returns do not vary). */
  explainedVariance: number;
  // And `logprobGap`: mean |sampler − trainer| log-prob over the trained tokens whose turns recorded the sampler's (absent when none did).
}

/**
 * The rollout batch as PPO's training sequences (rollout's tokeniser: loss and advantage masks,
 * turn rewards on the ends of turns): one forward pass of the policy as it played gives the old
 * log-probs and the value head's values; each episode's advantage-masked tokens, its sequences in
 * turn order, form the sequence GAE runs on ({@link episodeSequence}); the advantages and returns
 * go back to their tokens. Failed episodes are left out; `used` says how each episode was used.
 */
export async function ppoBatch(
  model: VisionLanguageModel,
  episodes: PolicyEpisodes,
  batch: PlayedBatch,
  settings: PpoAdvantageSettings = {},
  sampling?: SamplingDistribution,
): Promise<{ examples: PpoExample[]; statistics: PpoBatchStatistics; used: UsedEpisode[] }> {
  const examples: PpoExample[] = [];
  const sequencesOf: TrainingSequence[][] = [];
  const used: UsedEpisode[] = [];
  for (const trajectory of batch.trajectories) {
    const episode: UsedEpisode = { trajectory, sequences: [] };
    used.push(episode);
    if (trajectory.error !== undefined) {
      episode.leftOut = 'failed';
      continue;
    }
    if (settings.maskTruncatedEpisodes && trajectory.truncated && !trajectory.terminated) {
      episode.leftOut = 'truncated';
      continue;
    }
    const sequences = episodes.sequences(trajectory).filter((sequence) => sequence.advantageMask.includes(1));
    if (sequences.length === 0) {
      episode.leftOut = 'no-trained-tokens';
      continue;
    }
    for (const sequence of sequences) {
      const zeros = new Array<number>(sequence.inputIds.length).fill(0);
      examples.push({
        ...(await episodes.modelSequence(sequence, batch.images)),
        lossMask: sequence.lossMask,
        advantages: zeros,
        oldLogProbs: sequence.sampledLogProbs ?? zeros,
        ...(sequence.sampledLogProbs ? { sampledLogProbs: true } : {}),
        returns: zeros,
        oldValues: zeros,
        valueMask: zeros,
      });
      // The same object: the advantages, returns and values set below are what the record shows.
      episode.sequences.push({ sequence, example: examples.at(-1)! });
    }
    sequencesOf.push(sequences);
  }
  // The policy as it played: values, and the old log-probs of sequences without the sampler's. The
  // sampler's are checked against the recomputed ones (logprobGap) and kept as the old log-probs.
  let gapSum = 0;
  let gapTokens = 0;
  forEachForward(
    model,
    examples,
    (example, logProbs, values) => {
      if (example.sampledLogProbs) {
        for (let column = 1; column < example.tokens.length; column++) {
          if (example.lossMask[column] !== 1) continue;
          gapSum += Math.abs(logProbs[column]! - example.oldLogProbs![column]!);
          gapTokens++;
        }
      } else example.oldLogProbs = Array.from(logProbs);
      example.oldValues = Array.from(values);
    },
    32,
    sampling,
  );
  let row = 0;
  const rows = sequencesOf.map((sequences) => sequences.map(() => examples[row++]!));
  const gaeSequences = sequencesOf.map((sequences, episode) => episodeSequence(sequences, rows[episode]!.map((example) => example.oldValues), settings.rewardScale ?? 1));
  const { advantages, returns, valueMask, rawAdvantages } = ppoAdvantages(gaeSequences, settings);
  gaeSequences.forEach((sequence, episode) => {
    rows[episode]!.forEach((example, index) => {
      const length = example.tokens.length;
      const read = (values: Float64Array): number[] => {
        const out = new Array<number>(length).fill(0);
        sequence.positions.forEach(([part, position], compact) => {
          if (part === index) out[position] = values[compact]!;
        });
        return out;
      };
      example.advantages = read(advantages[episode]!);
      example.returns = read(returns[episode]!);
      example.valueMask = read(valueMask[episode]!);
    });
  });
  const moments = maskedMoments(rawAdvantages, gaeSequences.map((sequence) => sequence.lossMask));
  const valueRows = gaeSequences.map((sequence) => sequence.values);
  const returnMoments = maskedMoments(returns, valueMask);
  const errors = returns.map((values, index) => values.map((value, position) => value - (valueRows[index]![position] ?? 0)));
  const errorMoments = maskedMoments(errors, valueMask);
  const valueMoments = maskedMoments(valueRows, valueMask);
  return {
    examples,
    used,
    statistics: {
      advantageMean: moments.mean,
      advantageStd: Math.sqrt(moments.variance),
      returnMean: returnMoments.mean,
      valueMean: valueMoments.mean,
      explainedVariance: returnMoments.variance > 0 ? 1 - errorMoments.variance / returnMoments.variance : 0,
      ...(gapTokens > 0 ? { logprobGap: gapSum / gapTokens } : {}),
    },
  };
}

/** An episode's advantage-masked tokens as one sequence for the GAE estimators (VAGEN's multi-turn layout, observations left out). */
export interface EpisodeSequence extends TurnSequence {
  rewards: number[];
  values: number[];
  lossMask: number[];
  endOfTurn: number[];
  /** Where each entry came from: [index of the episode's training sequence, position in it]. */
  positions: [number, number][];
}

/**
 * The tokens of an episode's training sequences that take part in advantage estimation, in turn
 * order, with their rewards (× rewardScale; the tokeniser puts each turn's reward on its end of
 * turn) and values; the ends of turns are the sequences' `endOfTurn` positions. Observation tokens
 * are left out: masked GAE skips them and bi-level and turn-wise GAE read only generated tokens.
 */
export function episodeSequence(sequences: readonly TrainingSequence[], values: readonly (readonly number[])[], rewardScale = 1): EpisodeSequence {
  const sequence: EpisodeSequence = { rewards: [], values: [], lossMask: [], endOfTurn: [], positions: [] };
  sequences.forEach((part, index) => {
    const partValues = values[index] ?? [];
    if (partValues.length !== part.inputIds.length) {
      throw new RangeError(`Sequence ${index} of trajectory ${part.trajectoryId} has ${part.inputIds.length} tokens and ${partValues.length} values.`);
    }
    const ends = new Set(part.endOfTurn);
    part.advantageMask.forEach((mask, position) => {
      if (mask !== 1) return;
      sequence.rewards.push((part.rewards[position] ?? 0) * rewardScale);
      sequence.values.push(partValues[position]!);
      sequence.lossMask.push(1);
      sequence.positions.push([index, position]);
      if (ends.has(position)) sequence.endOfTurn.push(sequence.rewards.length - 1);
    });
  });
  return sequence;
}

/**
 * Advantages and returns of a batch of episode sequences by the chosen estimator, with VAGEN's
 * defaults (γ_turn 0.95, γ_token 1, λ 1) and (by default) whitening over the batch. `valueMask`
 * marks where the critic trains (every generated token; the ends of turns for turn-wise GAE);
 * `rawAdvantages` are the advantages before whitening.
 */
export function ppoAdvantages(
  sequences: readonly EpisodeSequence[],
  settings: PpoAdvantageSettings = {},
): { advantages: Float64Array[]; returns: Float64Array[]; valueMask: Float64Array[]; rawAdvantages: Float64Array[] } {
  const gammaTurn = settings.gammaTurn ?? 0.95;
  const gammaToken = settings.gammaToken ?? 1;
  const lambda = settings.lambda ?? 1;
  const whiten = settings.whiten ?? true;
  // An episode with no generated token carries no loss: leave it out of the estimators (they need a turn).
  const kept = sequences.map((sequence, index) => ({ sequence, index })).filter(({ sequence }) => sequence.endOfTurn.length > 0);
  const batch = kept.map(({ sequence }) => sequence);
  const estimate = (withWhitening: boolean): { advantages: Float64Array[]; returns: Float64Array[]; valueMask: Float64Array[] } => {
    if (batch.length === 0) return { advantages: [], returns: [], valueMask: [] };
    switch (settings.advantageEstimator ?? 'bi-level') {
      case 'bi-level': {
        const result = computeBiLevelGaeBatch({ sequences: batch, gammaTurn, gammaToken, lambda, whiten: withWhitening });
        return { ...result, valueMask: batch.map((sequence) => Float64Array.from(sequence.lossMask)) };
      }
      case 'masked': {
        const result = computeMaskedGaeBatch({ sequences: batch, gamma: gammaToken, lambda, whiten: withWhitening });
        return { ...result, valueMask: batch.map((sequence) => Float64Array.from(sequence.lossMask)) };
      }
      case 'turn-wise':
        return computeTurnWiseGaeBatch({ sequences: batch, gammaTurn, lambda, whiten: withWhitening });
      default:
        throw new RangeError(`Unknown advantageEstimator ${String(settings.advantageEstimator)} (use 'bi-level', 'masked' or 'turn-wise').`);
    }
  };
  const raw = estimate(false);
  const final = whiten ? estimate(true) : raw;
  const spread = (rows: Float64Array[]): Float64Array[] => {
    const out: Float64Array[] = sequences.map((sequence) => new Float64Array(sequence.lossMask.length));
    kept.forEach(({ index }, row) => {
      out[index] = rows[row]!;
    });
    return out;
  };
  return { advantages: spread(final.advantages), returns: spread(raw.returns), valueMask: spread(raw.valueMask), rawAdvantages: spread(raw.advantages) };
}
