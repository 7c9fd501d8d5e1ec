import { saveCheckpoint, type VisionLanguageModel } from '@saccade/models';
import type { RunEvent } from '@saccade/spec';
import type * as tf from '@tensorflow/tfjs-core';
import { join } from 'node:path';

/** What a trainer writes in a checkpoint's metadata; `--resume` reads it back. */
export interface TrainingCheckpointMetadata extends Record<string, unknown> {
  step: number;
  phase: 'sft' | 'grpo' | 'ppo';
  /** True on the checkpoint a phase ends with (its steps done, its time up or its target reached). */
  complete: boolean;
}

/** Saves `<folder>/<step>` (weights, optimizer, metadata) atomically and reports it. */
export async function saveTrainingCheckpoint(
  model: VisionLanguageModel,
  optimizer: tf.AdamOptimizer,
  folder: string,
  metadata: TrainingCheckpointMetadata,
  onEvent: (event: RunEvent) => void,
): Promise<void> {
  const path = join(folder, String(metadata.step));
  await saveCheckpoint(path, { model, optimizer, metadata });
  onEvent({ type: 'checkpoint-saved', time: new Date().toISOString(), step: metadata.step, path });
}

/** What the end of a training step needs from its trainer (both trainers share these settings). */
export interface StepEndSettings {
  steps: number;
  evalEvery: number;
  timeLimitSeconds?: number;
  targetSuccess?: number;
  checkpointFolder?: string;
  checkpointEvery?: number;
  checkpointMetadata?: Record<string, unknown>;
  betweenSteps?: (step: number) => Promise<{ checkpoint?: boolean } | void>;
}

/**
 * The end of step `step` in either trainer: evaluate when due (or when time is up), then, after
 * that evaluation so that a run resumed from the checkpoint redoes nothing, the between-steps hook
 * and a periodic or requested checkpoint. Returns true when the phase should stop here.
 */
export async function endTrainingStep(
  step: number,
  phase: TrainingCheckpointMetadata['phase'],
  settings: StepEndSettings,
  context: {
    model: VisionLanguageModel;
    optimizer: tf.AdamOptimizer;
    seconds: () => number;
    evaluate: (step: number) => Promise<{ success: number }>;
    onEvent: (event: RunEvent) => void;
  },
): Promise<boolean> {
  const outOfTime = settings.timeLimitSeconds !== undefined && context.seconds() >= settings.timeLimitSeconds;
  if (step % settings.evalEvery === 0 || step === settings.steps || outOfTime) {
    const result = await context.evaluate(step);
    if (settings.targetSuccess !== undefined && result.success >= settings.targetSuccess) return true;
  }
  if (outOfTime) return true;
  const request = await settings.betweenSteps?.(step);
  const periodic = settings.checkpointEvery !== undefined && step % settings.checkpointEvery === 0 && step < settings.steps;
  if (settings.checkpointFolder && (periodic || request?.checkpoint)) {
    await saveTrainingCheckpoint(context.model, context.optimizer, settings.checkpointFolder, { ...settings.checkpointMetadata, step, phase, complete: false }, context.onEvent);
  }
  return false;
}
