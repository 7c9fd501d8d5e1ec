import { createRng } from '@saccade/core';
import {
  applyChatTemplate,
  createAdamOptimizer,
  decodeImageData,
  imageTokenCount,
  saveCheckpoint,
  setLearningRate,
  sftStep,
  type SftExample,
  type VisionLanguageModel,
} from '@saccade/models';
import type { RunEvent } from '@saccade/spec';
import { join } from 'node:path';
import { collectDemonstrations } from './collect-demonstrations';
import { evaluatePolicy, type PolicyEvaluation } from './evaluate-policy';
import { warmupCosineLearningRate } from './learning-rate-schedule';
import { policyMessages, type PolicyView } from './policy-messages';

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
}

export interface TrainSftResult {
  steps: number;
  seconds: number;
  evaluations: (PolicyEvaluation & { step: number; seconds: number })[];
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

  const seeds = seedRange(settings.trainSeeds);
  const evalSeeds = seedRange(settings.evalSeeds);
  const trainSet = new Set(seeds);
  const overlap = evalSeeds.filter((seed) => trainSet.has(seed));
  if (overlap.length > 0) throw new RangeError(`Evaluation seeds overlap the training seeds (e.g. ${overlap[0]}); held-out seeds must be unseen.`);

  log(`collecting solver demonstrations on ${seeds.length} seeds of ${settings.envId}`);
  const demonstrations = await collectDemonstrations({ envId: settings.envId, envOptions: settings.envOptions ?? {}, seeds });
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

  const optimizer = createAdamOptimizer({ learningRate: settings.learningRate });
  const rng = createRng(settings.seed);
  let order = rng.shuffle(examples.map((_, index) => index));
  let cursor = 0;
  const started = performance.now();
  const seconds = (): number => (performance.now() - started) / 1000;
  const evaluations: TrainSftResult['evaluations'] = [];

  const evaluate = async (step: number): Promise<PolicyEvaluation> => {
    const result = await evaluatePolicy(model, {
      envId: settings.envId,
      envOptions: settings.envOptions ?? {},
      seeds: evalSeeds,
      view: settings.view,
      maxTurns: settings.maxTurns,
      ...(settings.signal ? { signal: settings.signal } : {}),
    });
    evaluations.push({ ...result, step, seconds: seconds() });
    onEvent({ type: 'eval-end', time: now(), step, metrics: { ...result, seconds: seconds() } });
    return result;
  };

  let step = 0;
  try {
    await evaluate(0);
    for (; step < settings.steps; ) {
      settings.signal?.throwIfAborted();
      const batch: SftExample[] = [];
      for (let index = 0; index < settings.batchSize; index++) {
        if (cursor === order.length) {
          order = rng.shuffle(order);
          cursor = 0;
        }
        batch.push(examples[order[cursor++]!]!);
      }
      const learningRate = warmupCosineLearningRate(step, { peak: settings.learningRate, warmupSteps: settings.warmupSteps, totalSteps: settings.steps });
      setLearningRate(optimizer, learningRate);
      const stepStarted = performance.now();
      const { loss, gradientNorm } = sftStep(model, optimizer, batch);
      const stepSeconds = (performance.now() - stepStarted) / 1000;
      const tokens = batch.reduce((sum, example) => sum + example.tokens.length, 0);
      step++;
      onEvent({
        type: 'update-end',
        time: now(),
        step,
        metrics: { loss, gradientNorm, learningRate, tokensPerSecond: tokens / stepSeconds, seconds: seconds() },
      });
      const outOfTime = settings.timeLimitSeconds !== undefined && seconds() >= settings.timeLimitSeconds;
      if (step % settings.evalEvery === 0 || step === settings.steps || outOfTime) {
        const result = await evaluate(step);
        if (settings.targetSuccess !== undefined && result.success >= settings.targetSuccess) break;
      }
      if (outOfTime) break;
    }
    if (settings.checkpointFolder) {
      const path = join(settings.checkpointFolder, String(step));
      await saveCheckpoint(path, { model, optimizer, metadata: { step, phase: 'sft' } });
      onEvent({ type: 'checkpoint-saved', time: now(), step, path });
    }
  } finally {
    optimizer.dispose();
  }
  return { steps: step, seconds: seconds(), evaluations };
}

function seedRange({ start, count }: { start: number; count: number }): number[] {
  return Array.from({ length: count }, (_, index) => start + index);
}
