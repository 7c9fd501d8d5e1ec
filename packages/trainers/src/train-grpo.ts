import { createRng } from '@saccade/core';
import { trajectorySuccess } from '@saccade/rollout';
import { timePhase, type LossReference, type VisionLanguageModel } from '@saccade/models';
import type { RunEvent, Trajectory } from '@saccade/spec';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { computeGigpoStepAdvantages, computeGrpoAdvantages } from './advantages/index';
import type { PolicyExample } from './losses/policy-loss';
import type { PlayedBatch, PolicyEpisodes } from './policy-episodes';
import type { PolicyPhaseResult, PolicyPhaseSettings } from './policy-phase-settings';
import { standardDeviation } from './rollout-diagnostics';
import { startPolicyPhase } from './policy-phase';
import { attachOldLogProbs, attachReferenceLogProbs, checkLogprobGap, DEFAULT_MAX_LOGPROB_GAP, policyLossContext, runPolicyUpdates } from './policy-training';
import type { UsedEpisode } from './training-record';

/**
 * What a GRPO phase plays each step (prompts and group size), how it scores and selects groups, and
 * which advantage estimator it uses (GRPO or GiGPO), besides the phase settings every policy
 * trainer takes.
 */
export interface TrainGrpoSettings extends PolicyPhaseSettings {
  /** Distinct seeds per step; each is played `groupSize` times (a GRPO group). */
  promptsPerStep: number;
  groupSize: number;
  /**
   * What an episode is scored by: 'return' (the sum of its rewards, shaping terms included) or
   * 'success' (1 or 0, an outcome reward). Default 'return'. With VAGEN's per-turn format reward a
   * success in more turns outscores one in fewer, which 'success' does not reward.
   */
  score?: 'return' | 'success';
  /** Divide advantages by the group's std (default true; false is Dr. GRPO). */
  normalizeStd?: boolean;
  /** Drop groups whose returns are all equal: their advantages are 0 (DAPO's dynamic sampling). Default true. */
  skipUniformGroups?: boolean;
  /**
   * DAPO's dynamic sampling (verl's `filter_groups.max_num_gen_batches`): when fewer than
   * `promptsPerStep` of a step's groups have scores that vary, play up to this many batches of
   * fresh seeds in all, and train on the first `promptsPerStep` varied groups. Default 1: one batch.
   */
  maxSampledBatches?: number;
  /**
   * Train only on this fraction of each step's groups, those whose scores vary most (RAGEN's
   * StarPO-S, VAGEN main's `reward_variance_top_p`). Default 1: every group.
   */
  rewardVarianceTopP?: number;
  /**
   * 'grpo' (default): one advantage per episode. 'gigpo': GiGPO's two levels (verl-agent's
   * `adv_estimator=gigpo`): the episode's GRPO advantage plus `stepAdvantageWeight` × the turn's
   * step-level advantage, its discounted return normalised among the turns of its group that
   * acted on the same state (computeGigpoStepAdvantages).
   */
  advantageEstimator?: 'grpo' | 'gigpo';
  /**
   * A null control: each group's scores are shuffled among its episodes before the advantages, so
   * the update has GRPO's advantages in size and sign but none of their link to what an episode
   * did. A change the control also makes comes from the update's noise, not from the reward
   * (the random-reward baseline). Deterministic per group. Default false.
   */
  shuffleScores?: boolean;
  /**
   * An episode whose tool calls all missed the target (the tool-use wrapper's `hit`, known for tasks
   * with a target box) trains its calls but not its answer: the answer could only guess, and a
   * group on such a look rewards the task's answer for an image that does not show it (label noise
   * at full weight). Episodes without a scored call are unchanged. Default false.
   */
  maskUngroundedAnswers?: boolean;
  /** GiGPO's ω (default 1). */
  stepAdvantageWeight?: number;
  /** GiGPO's γ for the turns' discounted returns (default 0.95). */
  stepDiscount?: number;
  /**
   * What makes two turns' states the same for GiGPO: 'observation' (default; its text and images
   * equal, verl-agent's exact match) or 'images' (its images equal: the rendered state, whatever
   * feedback text came with it).
   */
  stepAnchor?: 'observation' | 'images';
}

/** What a trainGrpo phase did: its steps, its seconds, and each held-out evaluation. */
export type TrainGrpoResult = PolicyPhaseResult;

const requireHere = createRequire(import.meta.url);

/** The policy loss, by module, so that data-parallel worker threads can import it. */
export function policyLossReference(): LossReference {
  return { module: pathToFileURL(requireHere.resolve('@saccade/trainers/losses')).href, export: 'policyShardLoss' };
}

/**
 * GRPO with the built-in model (REFERENCE §6): every step plays `promptsPerStep` training seeds
 * `groupSize` times with the sampling policy, scores each episode by its return, normalises within
 * the group, and gives every token of every turn of an episode that episode's advantage; then the
 * clipped policy loss (optionally with k3 KL to the starting policy and an entropy bonus) on every
 * thread. A step's seeds and samples depend on (seed, step) only, so a resumed run replays exactly.
 */
export async function trainGrpo(
  model: VisionLanguageModel,
  settings: TrainGrpoSettings,
  onEvent: (event: RunEvent) => void = () => {},
): Promise<TrainGrpoResult> {
  if (settings.groupSize < 2) throw new RangeError(`GRPO needs groupSize ≥ 2 (advantages are relative to the group); got ${settings.groupSize}.`);
  const phase = await startPolicyPhase(model, 'grpo', settings, onEvent);
  const { trainSeeds, optimizer, parallel, reference, klCoefficient } = phase;
  const loss = policyLossReference();
  phase.log(`GRPO on ${parallel.threadCount} thread(s): ${settings.promptsPerStep} seeds × ${settings.groupSize} per step`);

  let step = settings.startStep ?? 0;
  try {
    if (step === 0) await phase.evaluate(0);
    while (step < settings.steps) {
      settings.signal?.throwIfAborted();
      const rolloutStarted = performance.now();
      const stepRng = createRng(settings.seed).fork(`grpo-step-${step}`);
      const draw = (): number[] => Array.from({ length: settings.promptsPerStep }, () => trainSeeds[Math.floor(stepRng.next() * trainSeeds.length)]!);
      let played = await timePhase('play', () => phase.play(draw(), settings.groupSize, stepRng, step));
      let sampledBatches = 1;
      const dynamicSampling = (settings.maxSampledBatches ?? 1) > 1;
      // Dynamic sampling's test of the played groups, made once per played batch (GiGPO's needs step groups).
      let varied = dynamicSampling ? variedGroups(played, settings) : [];
      for (; sampledBatches < (settings.maxSampledBatches ?? 1) && varied.length < settings.promptsPerStep; sampledBatches++) {
        const more = await timePhase('play', () => phase.play(draw(), settings.groupSize, stepRng, step, `s${step + 1}b${sampledBatches}`));
        played = { trajectories: [...played.trajectories, ...more.trajectories], images: new Map([...played.images, ...more.images]) };
        varied = variedGroups(played, settings);
      }
      // Dynamic sampling trains on the first promptsPerStep varied groups; the rollout's metrics are every played episode's.
      const batch = sampledBatches > 1 ? firstVariedGroups(played, varied, settings.promptsPerStep) : played;
      const rolloutSeconds = (performance.now() - rolloutStarted) / 1000;
      const { examples, statistics, used } = await timePhase('sequences', () => grpoBatch(phase.episodes, batch, settings));
      await phase.record('grpo', step + 1, used, batch);
      // The sampler's log-probs are the old ones; examples without (episodes whose turns recorded no
      // prompt) get them recomputed when the batch mixes both or an update comes after the first.
      const sampled = examples.some((example) => example.sampledLogProbs);
      timePhase('logprobs', () => {
        if (sampled || (settings.epochs ?? 1) * (settings.miniBatches ?? 1) > 1) attachOldLogProbs(model, examples, phase.sampling);
        if (reference) attachReferenceLogProbs(reference, examples, phase.sampling);
      });
      const dynamic: Record<string, number> = dynamicSampling ? { sampledBatches, uniformGroups: uniformShare(played, varied) } : {};
      phase.reportRollout(step, played, examples.length, rolloutSeconds, { ...statistics, ...dynamic });

      const updateStarted = performance.now();
      const { metrics, tokens } = await timePhase('update', () => runPolicyUpdates({
        parallel,
        optimizer,
        loss,
        examples,
        learningRate: phase.learningRate(step),
        epochs: settings.epochs ?? 1,
        miniBatches: settings.miniBatches ?? 1,
        maxGradientNorm: settings.maxGradientNorm ?? 1,
        rng: stepRng,
        context: (batch) => policyLossContext(batch, settings, klCoefficient, 0.28, phase.sampling),
      }));
      step++;
      checkLogprobGap(step, metrics, settings.maxLogprobGap ?? DEFAULT_MAX_LOGPROB_GAP);
      phase.reportUpdate(step, metrics, tokens, rolloutSeconds, (performance.now() - updateStarted) / 1000);
      if (await phase.endStep(step)) break;
    }
    await phase.finish(step);
  } finally {
    await phase.close();
  }
  return { steps: step, seconds: phase.seconds(), evaluations: phase.evaluations };
}

/** An episode's GRPO score: its return, or 1/0 for success. */
function episodeScore(trajectory: Trajectory, score: TrainGrpoSettings['score']): number {
  return (score ?? 'return') === 'success' ? (trajectorySuccess(trajectory) ? 1 : 0) : trajectory.totalReward;
}

/**
 * The ids of a batch's groups that carry signal (failed episodes left out), in batch order: their
 * episodes' scores differ, or (GiGPO) a turn has a step advantage — grpoBatch's test for a group
 * that is not uniform, so dynamic sampling keeps the groups the update would train.
 */
export function variedGroups(batch: PlayedBatch, settings: GrpoAdvantageSettings): string[] {
  const trajectories = batch.trajectories.filter((trajectory) => trajectory.error === undefined);
  const keys: string[] = [];
  const groupIds = trajectories.map((trajectory) => {
    const key = trajectory.groupId ?? trajectory.id;
    if (!keys.includes(key)) keys.push(key);
    return keys.indexOf(key);
  });
  const scores = keys.map(() => new Set<number>());
  trajectories.forEach((trajectory, index) => scores[groupIds[index]!]!.add(episodeScore(trajectory, settings.score)));
  const steps = (settings.advantageEstimator ?? 'grpo') === 'gigpo' ? stepLevel(trajectories, groupIds, settings) : undefined;
  const signalled = new Set(trajectories.flatMap((_, index) => (steps?.advantages[index]!.some((value) => value !== 0) ? [groupIds[index]!] : [])));
  return keys.filter((_, group) => scores[group]!.size > 1 || signalled.has(group));
}

/** The share of a played batch's groups that carry no signal, given its varied groups. */
function uniformShare(batch: PlayedBatch, varied: readonly string[]): number {
  const groups = new Set(batch.trajectories.filter((trajectory) => trajectory.error === undefined).map((trajectory) => trajectory.groupId ?? trajectory.id));
  return groups.size === 0 ? 0 : 1 - varied.length / groups.size;
}

/** The batch's first `promptsPerStep` of its varied groups (dynamic sampling's batch), uniform groups dropped. */
function firstVariedGroups(batch: PlayedBatch, varied: readonly string[], promptsPerStep: number): PlayedBatch {
  const kept = new Set(varied.slice(0, promptsPerStep));
  return { trajectories: batch.trajectories.filter((trajectory) => kept.has(trajectory.groupId ?? trajectory.id)), images: batch.images };
}

/** What GRPO's advantages depend on. */
export type GrpoAdvantageSettings = Pick<
  TrainGrpoSettings,
  'score' | 'shuffleScores' | 'normalizeStd' | 'skipUniformGroups' | 'rewardVarianceTopP' | 'maskTruncatedEpisodes' | 'maskUngroundedAnswers' | 'advantageEstimator' | 'stepAdvantageWeight' | 'stepDiscount' | 'stepAnchor'
>;

/** How a rollout batch's groups fared in GRPO's selection (rollout-end metrics). */
export interface GrpoGroupStatistics extends Record<string, number> {
  /** Fraction of the groups whose scores were all equal (no signal). */
  uniformGroups: number;
  /** Fraction of the groups trained on (after the uniform and reward-variance filters). */
  trainedGroups: number;
  /** Mean and std (population) of the episodes' scores. */
  scoreMean: number;
  scoreStd: number;
  /** Episodes left out by over-turn masking. */
  maskedTruncatedEpisodes: number;
  // maskUngroundedAnswers adds `maskedUngroundedAnswers` (the trained episodes whose answer it left
  // out: every call missed the target).
  // GiGPO adds `stepGroupSize` (the mean number of turns per step group: a group's turns on the
  // same state) and `variedStepGroups` (of the step groups of more than one turn, the fraction whose
  // returns differ: those carry the step-level signal).
}

/**
 * The rollout batch as GRPO's training sequences: each trajectory scored (its return, or 1/0 for
 * success), normalised within its group (the rollout's group id), the advantage broadcast over
 * the advantage mask of each of its sequences (rollout's tokeniser), the sampler's log-probs as
 * the old ones. Groups whose scores are all equal (advantage 0), groups outside the reward-variance
 * top fraction, over-turn episodes (when masked) and failed episodes are left out.
 */
export async function policyExamples(episodes: PolicyEpisodes, batch: PlayedBatch, settings: GrpoAdvantageSettings = {}): Promise<PolicyExample[]> {
  return (await grpoBatch(episodes, batch, settings)).examples;
}

/** policyExamples with the statistics of the groups it kept and left out, and every episode as it was used (or why not). */
export async function grpoBatch(
  episodes: PolicyEpisodes,
  batch: PlayedBatch,
  settings: GrpoAdvantageSettings = {},
): Promise<{ examples: PolicyExample[]; statistics: GrpoGroupStatistics; used: UsedEpisode[] }> {
  const trajectories = batch.trajectories.filter((trajectory) => trajectory.error === undefined);
  const groupNumbers = new Map<string, number>();
  const groupIds = trajectories.map((trajectory) => {
    const key = trajectory.groupId ?? trajectory.id;
    if (!groupNumbers.has(key)) groupNumbers.set(key, groupNumbers.size);
    return groupNumbers.get(key)!;
  });
  const scores = trajectories.map((trajectory) => episodeScore(trajectory, settings.score));
  if (settings.shuffleScores) shuffleWithinGroups(scores, trajectories.map((trajectory) => trajectory.groupId ?? trajectory.id));
  const advantages = computeGrpoAdvantages({ scores, groupIds, normalizeStd: settings.normalizeStd ?? true });
  const steps = (settings.advantageEstimator ?? 'grpo') === 'gigpo' ? stepLevel(trajectories, groupIds, settings) : undefined;
  if (steps && settings.shuffleScores) throw new RangeError('shuffleScores is a control for GRPO\'s episode scores; GiGPO\'s step level reads the turns\' rewards, which it would leave unshuffled: use advantageEstimator grpo.');
  const groupScores = new Map<number, number[]>();
  trajectories.forEach((_, index) => groupScores.set(groupIds[index]!, [...(groupScores.get(groupIds[index]!) ?? []), scores[index]!]));
  const spread = new Map([...groupScores].map(([group, values]) => [group, standardDeviation(values)]));
  // A group is uniform when nothing in it carries signal: equal scores and (GiGPO) no step advantage.
  const signalled = new Set(trajectories.flatMap((_, index) => (steps?.advantages[index]!.some((value) => value !== 0) ? [groupIds[index]!] : [])));
  const uniform = new Set([...spread].filter(([group, std]) => std === 0 && !signalled.has(group)).map(([group]) => group));
  const kept = new Set(groupScores.keys());
  if (settings.skipUniformGroups ?? true) for (const group of uniform) kept.delete(group);
  const topP = settings.rewardVarianceTopP ?? 1;
  if (!(topP > 0 && topP <= 1)) throw new RangeError(`rewardVarianceTopP must be in (0, 1]; got ${topP}.`);
  if (topP < 1) {
    // The most varied groups first; ties keep the earlier group (a step's order is its seeds').
    const ranked = [...groupScores.keys()].sort((a, b) => spread.get(b)! - spread.get(a)! || a - b);
    const keep = new Set(ranked.slice(0, Math.max(1, Math.ceil(topP * ranked.length))));
    for (const group of [...kept]) if (!keep.has(group)) kept.delete(group);
  }
  const examples: PolicyExample[] = [];
  const used: UsedEpisode[] = batch.trajectories.filter((trajectory) => trajectory.error !== undefined).map((trajectory) => ({ trajectory, leftOut: 'failed', sequences: [] }));
  let masked = 0;
  let ungroundedAnswers = 0;
  for (const [index, trajectory] of trajectories.entries()) {
    const advantage = advantages[index] ?? 0;
    const episode: UsedEpisode = { trajectory, score: scores[index]!, advantage, sequences: [] };
    used.push(episode);
    if (!kept.has(groupIds[index]!)) {
      episode.leftOut = uniform.has(groupIds[index]!) ? 'uniform-group' : 'reward-variance';
      continue;
    }
    if (settings.maskTruncatedEpisodes && trajectory.truncated && !trajectory.terminated) {
      masked++;
      episode.leftOut = 'truncated';
      continue;
    }
    const ungrounded = settings.maskUngroundedAnswers ? ungroundedAnswerTurns(trajectory) : undefined;
    if (ungrounded && ungrounded.size > 0) ungroundedAnswers++;
    for (const sequence of episodes.sequences(trajectory)) {
      // The ungrounded answer turns' tokens leave both masks.
      const dropped = (position: number): boolean => ungrounded?.has(sequence.turnIds[position]!) === true;
      const lossMask = ungrounded && ungrounded.size > 0 ? sequence.lossMask.map((value, position) => (dropped(position) ? 0 : value)) : sequence.lossMask;
      if (!lossMask.includes(1)) continue;
      const example: PolicyExample = {
        ...(await episodes.modelSequence(sequence, batch.images)),
        lossMask,
        advantages: sequence.advantageMask.map((value, position) =>
          dropped(position) ? 0 : steps ? (value === 0 ? 0 : advantage + steps.weight * (steps.advantages[index]![sequence.turnIds[position]!] ?? 0)) : value * advantage,
        ),
        ...(sequence.sampledLogProbs ? { oldLogProbs: sequence.sampledLogProbs, sampledLogProbs: true } : {}),
      };
      examples.push(example);
      episode.sequences.push({ sequence, example });
    }
  }
  const groups = Math.max(groupScores.size, 1);
  const mean = scores.reduce((sum, value) => sum + value, 0) / Math.max(scores.length, 1);
  return {
    examples,
    used,
    statistics: {
      uniformGroups: uniform.size / groups,
      trainedGroups: kept.size / groups,
      scoreMean: mean,
      scoreStd: standardDeviation(scores),
      maskedTruncatedEpisodes: masked,
      ...(settings.maskUngroundedAnswers ? { maskedUngroundedAnswers: ungroundedAnswers } : {}),
      ...(steps ? { stepGroupSize: steps.groupSize, variedStepGroups: steps.varied } : {}),
    },
  };
}

/**
 * The turns of an episode that answered without having seen the target: when the episode's tool
 * calls were scored against a target (`hit` in the tool-use wrapper's call records) and none hit,
 * its turns that made no call; otherwise none.
 */
export function ungroundedAnswerTurns(trajectory: Trajectory): Set<number> {
  let scored = false;
  let hit = false;
  const callTurns = new Set<number>();
  trajectory.turns.forEach((turn, index) => {
    const calls = turn.info['toolCalls'];
    if (!Array.isArray(calls) || calls.length === 0) return;
    callTurns.add(index);
    for (const call of calls as { hit?: unknown }[]) {
      if (typeof call?.hit === 'boolean') scored = true;
      if (call?.hit === true) hit = true;
    }
  });
  if (!scored || hit) return new Set();
  return new Set(trajectory.turns.flatMap((_, index) => (callTurns.has(index) ? [] : [index])));
}

/** Shuffles `scores` in place among the entries of each group (Fisher–Yates, seeded by the group's key). */
export function shuffleWithinGroups(scores: number[], groupKeys: readonly string[]): void {
  const members = new Map<string, number[]>();
  groupKeys.forEach((key, index) => members.set(key, [...(members.get(key) ?? []), index]));
  for (const [key, indices] of members) {
    const rng = createRng(`shuffle-scores:${key}`);
    const values = indices.map((index) => scores[index]!);
    for (let last = values.length - 1; last > 0; last--) {
      const pick = Math.floor(rng.next() * (last + 1));
      [values[last], values[pick]] = [values[pick]!, values[last]!];
    }
    indices.forEach((index, position) => (scores[index] = values[position]!));
  }
}

/** GiGPO's step level over a batch's played episodes: each turn's advantage among the group's turns on the same state. */
function stepLevel(trajectories: readonly Trajectory[], groupIds: readonly number[], settings: GrpoAdvantageSettings): { advantages: Float64Array[]; weight: number; groupSize: number; varied: number } {
  const weight = settings.stepAdvantageWeight ?? 1;
  if (!Number.isFinite(weight)) throw new RangeError(`stepAdvantageWeight must be a finite number; got ${weight}.`);
  const anchor = settings.stepAnchor ?? 'observation';
  const result = computeGigpoStepAdvantages({
    trajectories: trajectories.map((trajectory, index) => ({
      groupId: groupIds[index]!,
      // With 'success' the outcome is the only reward, on the last turn; with 'return' every turn's reward.
      stepRewards: (settings.score ?? 'return') === 'success'
        ? trajectory.turns.map((_, turn) => (turn === trajectory.turns.length - 1 && trajectorySuccess(trajectory) ? 1 : 0))
        : trajectory.turns.map((turn) => turn.reward),
      anchors: trajectory.turns.map((turn) => JSON.stringify(anchor === 'images' ? turn.observation.images.map((image) => image.hash) : [turn.observation.text, turn.observation.images.map((image) => image.hash)])),
    })),
    ...(settings.stepDiscount === undefined ? {} : { discount: settings.stepDiscount }),
    normalizeStd: settings.normalizeStd ?? true,
  });
  const sizes = result.stepGroupSizes;
  const shared = sizes.filter((size) => size > 1).length;
  return {
    advantages: result.stepAdvantages,
    weight,
    groupSize: sizes.reduce((sum, size) => sum + size, 0) / Math.max(sizes.length, 1),
    varied: result.variedStepGroups / Math.max(shared, 1),
  };
}
