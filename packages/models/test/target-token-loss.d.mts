import type * as tf from '@tensorflow/tfjs-core';
import type { ModelSequence, ShardLossOutput, VisionLanguageModel } from '../src/index';

/** A model sequence with the tokens the test loss trains marked (1) in `lossMask`. */
export interface MarkedSequence extends ModelSequence {
  lossMask: readonly number[];
}

export function countMarked(examples: readonly MarkedSequence[]): number;
export function targetTokenLoss(model: VisionLanguageModel, shard: readonly MarkedSequence[], context: { markedTokens: number }): ShardLossOutput;
export function batchTargetTokenLoss(model: VisionLanguageModel, examples: readonly MarkedSequence[]): tf.Scalar;
