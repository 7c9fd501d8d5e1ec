import { createRng } from '@saccade/core';
import {
  applyChatTemplate,
  countTargets,
  createAdamOptimizer,
  DataParallel,
  decodeImageData,
  imageTokenCount,
  setLearningRate,
  sftLossReference,
  type SftExample,
  type VisionLanguageModel,
} from '@saccade/models';
import type { RunEvent } from '@saccade/spec';
import type * as tf from '@tensorflow/tfjs-core';
import { collectDemonstrations } from './collect-demonstrations';
import { warmupCosineLearningRate } from './learning-rate-schedule';
import { createHeldOutEvaluator, type TimedEvaluation } from './held-out-evaluator';
import { policyMessages, type PolicyView } from './policy-messages';
import { assertDisjointSeeds, seedRange } from './seed-range';
import { endTrainingStep, saveTrainingCheckpoint } from './training-checkpoint';

export interface TrainSftSettings {
  envId: string;
  envOptions?: Record<string, unknown>;
  view: PolicyView;
  /** Seeds the demonstrations come from; evaluation uses `evalSeeds`, which must not overlap. */
  trainSeeds: { start: number; count: number };
  evalSeeds: { start: number; count: number };
  maxTurns: number;
  steps: number;
  batchSize: number;
  learningRate: number;
  warmupSteps: number;
  evalEvery: number;
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
  const seeds = seedRange(settings.trainSeeds);

  log(`collecting solver demonstrations on ${seeds.length} seeds of ${settings.envId}`);
  const demonstrations = await collectDemonstrations({ envId: settings.envId, envOptions: settings.envOptions ?? {}, seeds, maxTurns: settings.maxTurns });
  const imageTokens = imageTokenCount(model.config);
  const examples: SftExample[] = await Promise.all(
    demonstrations.map(async (demonstration) => {
      const messages = [...policyMessages(demonstration.observation, settings.view), { role: 'assistant' as const, content: demonstration.response }];
      const sequence = applyChatTemplate(model.tokenizer, messages, { imageTokens, addGenerationPrompt: false });
      const images = await Promise.all(sequence.images.map((image) => decodeImageData(image, model.config.imageSize)));
      return { tokens: sequence.tokens, images, lossMask: sequence.assistantMask };
    }),
  );
  log(`${examples.length} demonstrations ready`, { examples: examples.length });

  const optimizer = settings.optimizer ?? createAdamOptimizer({ learningRate: settings.learningRate });
  const parallel = await DataParallel.create(model, settings.workers === undefined ? {} : { workers: settings.workers });
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

  const { evaluations, evaluate } = createHeldOutEvaluator(model, settings, parallel, seconds, onEvent);

  let step = settings.startStep ?? 0;
  try {
    if (step === 0) await evaluate(0);
    for (; step < settings.steps; ) {
      settings.signal?.throwIfAborted();
      const batch = Array.from({ length: settings.batchSize }, (_, index) => exampleAt(step * settings.batchSize + index));
      const learningRate = warmupCosineLearningRate(step, { peak: settings.learningRate, warmupSteps: settings.warmupSteps, totalSteps: settings.steps });
      setLearningRate(optimizer, learningRate);
      const stepStarted = performance.now();
      const { loss, gradientNorm } = await parallel.step(optimizer, sftLossReference(), batch, { targetTokens: countTargets(batch) });
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
