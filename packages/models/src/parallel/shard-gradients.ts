import * as tf from '@tensorflow/tfjs-core';
import type { VisionLanguageModel } from '../vision-language-model';
import type { ShardLoss } from './shard-loss';

export interface ShardGradients {
  /** One per trainable variable, canonical order; the caller disposes them. */
  gradients: tf.Tensor[];
  loss: number;
  metrics: Record<string, number>;
}

/** Gradients of a shard loss with respect to every weight (zeros where the loss does not reach). */
export function shardGradients<Example, Context>(
  model: VisionLanguageModel,
  loss: ShardLoss<Example, Context>,
  shard: readonly Example[],
  context: Context,
): ShardGradients {
  const variables = model.trainableVariables;
  let metricTensors: Record<string, tf.Scalar> = {};
  const { value, grads } = tf.variableGrads(() => {
    const output = loss(model, shard, context);
    // Metrics are created inside the gradient tape's scope; keep them past it.
    metricTensors = Object.fromEntries(Object.entries(output.metrics ?? {}).map(([name, metric]) => [name, tf.keep(metric)]));
    return output.loss;
  }, variables);
  const gradients = variables.map((variable) => grads[variable.name] ?? tf.zerosLike(variable));
  const metrics = Object.fromEntries(Object.entries(metricTensors).map(([name, metric]) => [name, metric.dataSync()[0] ?? NaN]));
  const result = { gradients, loss: value.dataSync()[0] ?? NaN, metrics };
  tf.dispose([value, ...Object.values(metricTensors)]);
  // Variables the loss reached have their gradient in `gradients`; dispose any extra entries.
  const kept = new Set(gradients);
  tf.dispose(Object.values(grads).filter((gradient) => !kept.has(gradient)));
  return result;
}
