import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { createOracleAgent } from '@saccade/agents';
import { createRng, trajectorySuccess } from '@saccade/core';
import { createAdamOptimizer, DataParallel, setLearningRate, timePhase, type LossReference, type VisionLanguageModel } from '@saccade/models';
import type { EpisodeContext } from '@saccade/rollout';
import type { Agent, RunEvent, Trajectory } from '@saccade/spec';
import type * as tf from '@tensorflow/tfjs-core';
import { warmupCosineLearningRate } from './learning-rate-schedule';
import { missedLookTurns } from './missed-look-turns';
import type { EvalSampling } from './evaluate-policy';
import { createHeldOutEvaluator, type TimedEvaluation } from './held-out-evaluator';
import { countTargets, type SftExample } from './losses/sft-loss';
import { createPolicyEpisodes, type EpisodeSettings, type PlayedBatch, type PolicyEpisodes } from './policy-episodes';
import { assertDisjointSeeds, seedRange } from './seed-range';
import { endTrainingStep, saveTrainingCheckpoint } from './training-checkpoint';

/**
 * What trainSft trains on (oracle or given demonstrations over the training seeds), how (optimizer,
 * batches, steps) and how it evaluates on held-out seeds, besides the episode settings every
 * trainer takes.
 */
export interface TrainSftSettings extends EpisodeSettings {
  /** Seeds the oracle's demonstrations come from; evaluation uses `evalSeeds`, which must not overlap. */
  trainSeeds: { start: number; count: number };
  evalSeeds: { start: number; count: number };
  /**
   * Play the training seeds with the oracle agent (the env's `oracleResponse`) for demonstrations
   * (default true). An env without an oracle needs `demonstrations` instead.
   */
  oracle?: boolean;
  /**
   * Plays the training seeds in the oracle's place: e.g. a random agent of the env's action space,
   * for a start that knows the response format but not the policy (as VAGEN's base model does).
   */
  demonstrationAgent?: (context: EpisodeContext, attempt: number) => Agent | Promise<Agent>;
  /**
   * Best-of-n demonstrations: each training seed is played up to this many times (attempt 0, 1, …:
   * a demonstration agent seeded by its attempt draws anew) and its first episode the env scored a
   * success is kept; seeds with none are left out and counted (default 1: every episode as played).
   * With a noisy teacher (`createNoisyLookingAgent`), the chains SFT reads are those that worked.
   */
  demonstrationSamples?: number;
  /** Demonstrations from elsewhere (SFT files, converted task files), as trajectories. */
  demonstrations?: PlayedBatch;
  /**
   * Leave out of the loss the turns whose looks all missed the target (`missedLookTurns`: a
   * searching teacher's looks at decoys), so the pointer learns the target's cell only while the
   * episodes still show a miss and another look (default false).
   */
  maskMissedLooks?: boolean;
  steps: number;
  batchSize: number;
  learningRate: number;
  warmupSteps: number;
  evalEvery: number;
  /** A sampled held-out evaluation beside each greedy one (mean@n at a temperature; none by default). */
  evalSampling?: EvalSampling;
  /** Stop early once held-out success reaches this (default: never). */
  targetSuccess?: number;
  /** Stop after this many seconds of training (default: no limit). */
  timeLimitSeconds?: number;
  seed: number;
  /** Where checkpoints go (`<folder>/<step>`); none are written without it. */
  checkpointFolder?: string;
  signal?: AbortSignal;
  /** Steps already done (a resumed run): batches and the learning-rate schedule continue from here. */
  startStep?: number;
  /** An optimizer to continue with (a resumed run's, from its checkpoint); otherwise a fresh Adam. */
  optimizer?: tf.AdamOptimizer;
  /** Checkpoint every this many steps (default: at the end only). */
  checkpointEvery?: number;
  /** Merged into every checkpoint's metadata (the runner records where a phase started). */
  checkpointMetadata?: Record<string, unknown>;
  /**
   * Awaited between steps: the runner pauses here (the TUI's pause key) and asks for a checkpoint
   * of the current step (its checkpoint key).
   */
  betweenSteps?: (step: number) => Promise<{ checkpoint?: boolean } | void>;
  /** Worker threads for data-parallel steps (default: one per spare core on wasm/cpu; see DataParallel). */
  workers?: number;
}

const requireHere = createRequire(import.meta.url);

/** The loss reference of SFT's masked cross-entropy (`sftShardLoss`), for DataParallel.step. */
export function sftLossReference(): LossReference {
  return { module: pathToFileURL(requireHere.resolve('@saccade/trainers/losses')).href, export: 'sftShardLoss' };
}

/** What a trainSft phase did: its steps, its seconds, and each held-out evaluation. */
export interface TrainSftResult {
  steps: number;
  seconds: number;
  evaluations: TimedEvaluation[];
}

/**
 * Supervised fine-tuning of the built-in model on the env's solver demonstrations, with held-out
 * evaluation as it goes: the first phase of the default run. Emits spec run events.
 */
export async function trainSft(
  model: VisionLanguageModel,
  settings: TrainSftSettings,
  onEvent: (event: RunEvent) => void = () => {},
): Promise<TrainSftResult> {
  const now = (): string => new Date().toISOString();
  const log = (message: string, data?: Record<string, unknown>): void =>
    onEvent({ type: 'log', time: now(), level: 'info', message, ...(data ? { data } : {}) });

  assertDisjointSeeds(settings.trainSeeds, settings.evalSeeds);
  const parallel = await DataParallel.create(model, settings.workers === undefined ? {} : { workers: settings.workers });
  let examples: SftExample[];
  let maskedMissedLooks: number;
  let cutExamples: number;
  let episodes: PolicyEpisodes;
  try {
    episodes = await createPolicyEpisodes(model, settings, parallel, onEvent);
    ({ examples, maskedMissedLooks, cutExamples } = await sftExamples(episodes, settings, log));
  } catch (error) {
    await parallel.close();
    throw error;
  }
  const notes = [
    ...(settings.maskMissedLooks ? [`${maskedMissedLooks} missed looks left out of the loss`] : []),
    // A cut drops the sequence's start, its first image with it: what a context too small for the episodes looks like.
    ...(cutExamples > 0 ? [`${cutExamples} cut on the left to fit the ${settings.maxSequenceLength ?? model.config.maxSequenceLength}-token context`] : []),
  ];
  log(`${examples.length} demonstrations ready${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`, {
    examples: examples.length,
    ...(settings.maskMissedLooks ? { maskedMissedLooks } : {}),
    ...(cutExamples > 0 ? { cutExamples } : {}),
  });
  if (examples.length === 0) {
    await parallel.close();
    throw new RangeError(`SFT on ${settings.envId} has no demonstrations: enable the oracle or give demonstrations (an SFT file from \`saccade data generate\`).`);
  }

  const optimizer = settings.optimizer ?? createAdamOptimizer({ learningRate: settings.learningRate });
  log(`training on ${parallel.threadCount} thread(s)`, { threads: parallel.threadCount });
  // Epoch e's order depends on (seed, e) only, so the batch of any step can be rebuilt: a resumed
  // run sees exactly the batches the uninterrupted run would have.
  const epochOrders = new Map<number, number[]>();
  const exampleAt = (position: number): SftExample => {
    const epoch = Math.floor(position / examples.length);
    let order = epochOrders.get(epoch);
    if (!order) {
      epochOrders.clear();
      order = createRng(settings.seed).fork(`sft-epoch-${epoch}`).shuffle(examples.map((_, index) => index));
      epochOrders.set(epoch, order);
    }
    return examples[order[position % examples.length]!]!;
  };
  const started = performance.now();
  const seconds = (): number => (performance.now() - started) / 1000;

  const { evaluations, evaluate } = createHeldOutEvaluator(episodes, settings, seconds, onEvent);

  let step = settings.startStep ?? 0;
  try {
    if (step === 0) await evaluate(0);
    for (; step < settings.steps; ) {
      settings.signal?.throwIfAborted();
      const batch = Array.from({ length: settings.batchSize }, (_, index) => exampleAt(step * settings.batchSize + index));
      const learningRate = warmupCosineLearningRate(step, { peak: settings.learningRate, warmupSteps: settings.warmupSteps, totalSteps: settings.steps });
      setLearningRate(optimizer, learningRate);
      const stepStarted = performance.now();
      const { loss, gradientNorm } = await timePhase('update', () => parallel.step(optimizer, sftLossReference(), batch, { targetTokens: countTargets(batch) }));
      const stepSeconds = (performance.now() - stepStarted) / 1000;
      const tokens = batch.reduce((sum, example) => sum + example.tokens.length, 0);
      step++;
      onEvent({
        type: 'update-end',
        time: now(),
        step,
        metrics: { loss, gradientNorm, learningRate, tokensPerSecond: tokens / stepSeconds, seconds: seconds() },
      });
      if (await endTrainingStep(step, 'sft', settings, { model, optimizer, seconds, evaluate, onEvent })) break;
    }
    if (settings.checkpointFolder) {
      await saveTrainingCheckpoint(model, optimizer, settings.checkpointFolder, { ...settings.checkpointMetadata, step, phase: 'sft', complete: true }, onEvent);
    }
  } finally {
    if (!settings.optimizer) optimizer.dispose();
    await parallel.close();
  }
  return { steps: step, seconds: seconds(), evaluations };
}

/**
 * The supervised examples: the demonstrator's episodes on the training seeds (played by the rollout
 * manager) and any given demonstrations, each turned into masked sequences by rollout's tokeniser
 * exactly as the policy is prompted. The demonstrator plays only the seeds the run can read: the
 * first `steps × batchSize` of the range (one episode for each example a step reads, so that a
 * short run still sees as many maps as examples), a chunk at a time with progress in the log, so a
 * 10-step run on 8,000 seeds starts at once. The set depends on (seeds, steps, batch size) only: a
 * resumed run plays the same one.
 */
async function sftExamples(
  episodes: PolicyEpisodes,
  settings: TrainSftSettings,
  log: (message: string, data?: Record<string, unknown>) => void,
): Promise<{ examples: SftExample[]; maskedMissedLooks: number; cutExamples: number }> {
  const examples: SftExample[] = [];
  let maskedMissedLooks = 0;
  let cutExamples = 0;
  const add = async (batch: PlayedBatch, trajectories: readonly Trajectory[] = batch.trajectories): Promise<void> => {
    // Decoded together, kept in order: one image decode at a time left sharp's pool idle (a
    // 64-px PNG is ~1 ms of latency and far less of work).
    const perTrajectory = await Promise.all(
      trajectories.map((trajectory) => {
        const missed = settings.maskMissedLooks ? missedLookTurns(trajectory) : new Set<number>();
        maskedMissedLooks += missed.size;
        return trajectoryExamples(episodes, trajectory, batch, missed);
      }),
    );
    for (const made of perTrajectory) {
      examples.push(...made.examples);
      cutExamples += made.cut;
    }
  };
  if (settings.oracle ?? true) {
    const seeds = seedRange(settings.trainSeeds).slice(0, Math.max(1, settings.steps * settings.batchSize));
    const name = settings.demonstrationAgent ? 'demonstration agent' : 'oracle';
    const agentFor = (attempt: number) => (settings.demonstrationAgent ? (context: EpisodeContext) => settings.demonstrationAgent!(context, attempt) : ({ env }: EpisodeContext) => createOracleAgent({ env }));
    const samples = settings.demonstrationSamples ?? 1;
    if (!Number.isSafeInteger(samples) || samples < 1) throw new RangeError(`demonstrationSamples: expected an integer ≥ 1, received ${String(samples)}`);
    log(`playing the ${name} on ${seeds.length} of the ${settings.trainSeeds.count} training seeds of ${settings.envId} for demonstrations${samples > 1 ? ` (best of ${samples}: the first success of each seed)` : ''}`);
    let failures = 0;
    let firstFailure: string | undefined;
    let unsolved = 0;
    let tries = 0;
    for (let played = 0; played < seeds.length; played += DEMONSTRATION_CHUNK) {
      const chunk = seeds.slice(played, played + DEMONSTRATION_CHUNK);
      // Best-of-n: the seeds still without a success are played again, each attempt its own draws;
      // each attempt's batch is kept with the episodes kept from it, in the seeds' order.
      const kept: { batch: PlayedBatch; trajectories: Trajectory[] }[] = [];
      let pending = chunk;
      for (let attempt = 0; attempt < samples && pending.length > 0; attempt++) {
        // Rendering frames waits on sharp's thread pool: 32 episodes at a time keep it busy (8 left it
        // idle part of the time). The batch keeps the seeds' order whatever the concurrency.
        const batch = await episodes.play(pending, { temperature: 0, seed: settings.seed, agent: agentFor(attempt), concurrency: 32 });
        tries += pending.length;
        const failed = batch.trajectories.filter((trajectory) => trajectory.error !== undefined);
        if (played === 0 && attempt === 0 && failed.length === batch.trajectories.length && failed[0]?.error) {
          throw new Error(`The ${name} could not play ${settings.envId}: ${failed[0].error.message} Give demonstrations instead (an SFT file from \`saccade data generate\`).`);
        }
        failures += failed.length;
        firstFailure ??= failed[0]?.error?.message;
        const keep = batch.trajectories.map((trajectory) => trajectory.error === undefined && (samples === 1 || trajectorySuccess(trajectory)));
        kept.push({ batch, trajectories: batch.trajectories.filter((_, index) => keep[index]) });
        pending = pending.filter((_, index) => !keep[index]);
      }
      if (samples > 1) unsolved += pending.length;
      for (const { batch, trajectories } of kept) await add(batch, trajectories);
      log(`demonstrations: ${played + chunk.length} of ${seeds.length} seeds played, ${examples.length} examples`, { seeds: played + chunk.length, examples: examples.length });
    }
    if (failures > 0) log(`${failures} ${name} episodes failed and are left out (first: ${firstFailure})`);
    if (samples > 1) {
      log(`best of ${samples}: ${seeds.length - unsolved} of ${seeds.length} seeds kept a successful episode (${tries} episodes played); ${unsolved} had none and are left out`, { seeds: seeds.length, unsolved, episodes: tries });
    }
  }
  if (settings.demonstrations) await add(settings.demonstrations);
  return { examples, maskedMissedLooks, cutExamples };
}

/** Seeds the demonstrator plays between two progress lines. */
const DEMONSTRATION_CHUNK = 512;

/**
 * A demonstration's masked sequences (those with a trained token), images decoded; the `missed`
 * turns leave the loss. `cut`: how many of them were cut on the left to fit the context.
 */
async function trajectoryExamples(episodes: PolicyEpisodes, trajectory: Trajectory, batch: PlayedBatch, missed: ReadonlySet<number>): Promise<{ examples: SftExample[]; cut: number }> {
  const examples: SftExample[] = [];
  let cut = 0;
  for (const sequence of episodes.sequences(trajectory, { recordedTokens: false })) {
    const lossMask = missed.size === 0 ? sequence.lossMask : sequence.lossMask.map((value, position) => (missed.has(sequence.turnIds[position]!) ? 0 : value));
    if (!lossMask.includes(1)) continue;
    examples.push({ ...(await episodes.modelSequence(sequence, batch.images)), lossMask });
    if (sequence.truncatedTokens > 0) cut++;
  }
  return { examples, cut };
}
