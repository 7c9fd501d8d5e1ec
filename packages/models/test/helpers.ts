import { initTensor } from '@saccade/tensor';
import type * as tf from '@tensorflow/tfjs-core';
import { applyLoss, type ApplyLossResult, type LossReference, type RgbImage, type VisionLanguageModel } from '../src/index';
import { batchTargetTokenLoss, type MarkedSequence } from './target-token-loss.mjs';

/** The process's backend (wasm here), with Saccade's kernel fixes. */
export async function initBackend(): Promise<void> {
  await initTensor();
}

export function solidImage(size: number, [red, green, blue]: [number, number, number]): RgbImage {
  const data = new Uint8Array(size * size * 3);
  for (let pixel = 0; pixel < size * size; pixel++) data.set([red, green, blue], pixel * 3);
  return { width: size, height: size, data };
}

/** A solid background with one cell (of a 4×4 grid) in another colour. */
export function cellImage(size: number, cell: number, background: [number, number, number], mark: [number, number, number]): RgbImage {
  const image = solidImage(size, background);
  const cellSize = size / 4;
  const row = Math.floor(cell / 4);
  const column = cell % 4;
  for (let y = row * cellSize; y < (row + 1) * cellSize; y++) {
    for (let x = column * cellSize; x < (column + 1) * cellSize; x++) image.data.set(mark, (y * size + x) * 3);
  }
  return image;
}

/** One optimizer step on the test loss (target-token-loss.mjs): what the model's tests train with. */
export function trainStep(model: VisionLanguageModel, optimizer: tf.Optimizer, examples: readonly MarkedSequence[]): ApplyLossResult {
  return applyLoss(model, optimizer, () => batchTargetTokenLoss(model, examples));
}

/** The test loss by module, for DataParallel's worker threads. */
export function targetTokenLossReference(): LossReference {
  return { module: new URL('./target-token-loss.mjs', import.meta.url).href, export: 'targetTokenLoss' };
}
