import * as tf from '@tensorflow/tfjs-core';
import { activePhaseTimer, timePhase } from '../phase-timer';
import type { VisionLanguageModel } from '../vision-language-model';
import type { ShardLoss } from './shard-loss';

/**
 * One shard's gradients (canonical variable order), loss and metrics, for a DataParallel step to
 * sum.
 */
export interface ShardGradients {
  /** One per trainable variable, canonical order; the caller disposes them. */
  gradients: tf.Tensor[];
  loss: number;
  metrics: Record<string, number>;
}

/**
 * Tokens a loss is differentiated over at once: a longer shard is cut into consecutive parts whose
 * gradients are summed (shard losses add up, see LossReference), so that a step's activations fit
 * the wasm heap. A GRPO batch of 64 four-turn crop episodes (~19,000 tokens a thread, two 128-px
 * images or more an episode through the pixel stem) ran out of it in one pass.
 */
export const MICRO_BATCH_TOKENS = 8192;

/**
 * Length up to which an example costs its token count; past it the attention's scores (length² a
 * head and layer) outgrow the rest of its activations, so a longer example costs length² / this:
 * 64 episodes of ~800 tokens (four 64-token crops and a 230-character question, a 1024-token
 * context) in 8,192-token parts ran the wasm heap out in a GRPO update.
 */
export const QUADRATIC_COST_FROM = 512;

/** An example's cost for sharding and micro-batches: its token count, quadratic past QUADRATIC_COST_FROM (1 for examples without tokens). */
export function exampleCost(example: unknown): number {
  const tokens = (example as { tokens?: { length: number } } | null)?.tokens;
  if (!tokens) return 1;
  const length = tokens.length;
  return length <= QUADRATIC_COST_FROM ? length : Math.ceil((length * length) / QUADRATIC_COST_FROM);
}

/** Adds a part's gradients, loss and metrics to a running total; both parts' gradient tensors are disposed. */
export function addShardGradients(total: ShardGradients, part: ShardGradients): ShardGradients {
  const gradients = timePhase('gradients.add', () => total.gradients.map((gradient, index) => tf.add(gradient, part.gradients[index]!)));
  tf.dispose([...total.gradients, ...part.gradients]);
  const metrics = { ...total.metrics };
  for (const [name, value] of Object.entries(part.metrics)) metrics[name] = (metrics[name] ?? 0) + value;
  return { gradients, loss: total.loss + part.loss, metrics };
}

/**
 * Gradients of a shard loss with respect to every weight (zeros where the loss does not reach),
 * taken over consecutive parts of at most `maxTokens` tokens (an example longer than that is a part
 * of its own) and summed.
 */
export function shardGradients<Example, Context>(
  model: VisionLanguageModel,
  loss: ShardLoss<Example, Context>,
  shard: readonly Example[],
  context: Context,
  maxTokens = MICRO_BATCH_TOKENS,
): ShardGradients {
  const parts: Example[][] = [[]];
  let tokens = 0;
  for (const example of shard) {
    const cost = exampleCost(example);
    if (parts.at(-1)!.length > 0 && tokens + cost > maxTokens) {
      parts.push([]);
      tokens = 0;
    }
    parts.at(-1)!.push(example);
    tokens += cost;
  }
  let total = partGradients(model, loss, parts[0]!, context);
  for (const part of parts.slice(1)) total = addShardGradients(total, partGradients(model, loss, part, context));
  return total;
}

function partGradients<Example, Context>(model: VisionLanguageModel, loss: ShardLoss<Example, Context>, part: readonly Example[], context: Context): ShardGradients {
  const variables = model.trainableVariables;
  let metricTensors: Record<string, tf.Scalar> = {};
  // With a phase timer: the forward pass is the loss call, the backward pass what variableGrads does after it.
  const timer = activePhaseTimer();
  let forwardEnd = 0;
  const { value, grads } = tf.variableGrads(() => {
    const output = timePhase('forward', () => loss(model, part, context));
    // Metrics are created inside the gradient tape's scope; keep them past it.
    metricTensors = Object.fromEntries(Object.entries(output.metrics ?? {}).map(([name, metric]) => [name, tf.keep(metric)]));
    if (timer) forwardEnd = timer.now();
    return output.loss;
  }, variables);
  if (timer) timer.record('backward', timer.now() - forwardEnd);
  const gradients = variables.map((variable) => grads[variable.name] ?? tf.zerosLike(variable));
  const metrics = Object.fromEntries(Object.entries(metricTensors).map(([name, metric]) => [name, metric.dataSync()[0] ?? NaN]));
  const result = { gradients, loss: value.dataSync()[0] ?? NaN, metrics };
  tf.dispose([value, ...Object.values(metricTensors)]);
  // Variables the loss reached have their gradient in `gradients`; dispose any extra entries.
  const kept = new Set(gradients);
  tf.dispose(Object.values(grads).filter((gradient) => !kept.has(gradient)));
  return result;
}
