import { saveCheckpoint, type VisionLanguageModel } from '@saccade/models';
import type { RunEvent } from '@saccade/spec';
import type * as tf from '@tensorflow/tfjs-core';
import { join } from 'node:path';

/** What a trainer writes in a checkpoint's metadata; `--resume` reads it back. */
export interface TrainingCheckpointMetadata extends Record<string, unknown> {
  step: number;
  phase: 'sft' | 'grpo';
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
