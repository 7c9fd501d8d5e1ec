import type * as tf from '@tensorflow/tfjs-core';
import type { VisionLanguageModel } from '../vision-language-model';

/**
 * A loss over one shard of a batch. Shard losses must add up to the batch loss, so a loss that is
 * a mean over the batch divides by a batch-wide total that the caller passes in `context` (e.g.
 * the batch's target-token count), not by the shard's own. Metrics add up the same way.
 */
export type ShardLoss<Example = unknown, Context = unknown> = (
  model: VisionLanguageModel,
  shard: readonly Example[],
  context: Context,
) => ShardLossOutput;

/**
 * What a ShardLoss returns: the differentiable loss of its shard and metrics that add up over
 * shards.
 */
export interface ShardLossOutput {
  loss: tf.Scalar;
  metrics?: Record<string, tf.Scalar>;
}

/**
 * Where a worker thread finds a loss: an absolute file URL (or path) of an ES module and the name
 * of the ShardLoss it exports. Functions cannot cross threads; modules can be imported on both.
 */
export interface LossReference {
  module: string;
  export: string;
}
