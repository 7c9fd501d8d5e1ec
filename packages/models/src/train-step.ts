import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError } from '@saccade/spec';
import { FusedAdamOptimizer, fusedAdamAvailable } from '@saccade/tensor';
import { timePhase } from './phase-timer';
import type { VisionLanguageModel } from './vision-language-model';

/** Adam's learning rate and, optionally, its betas and epsilon (PyTorch's defaults otherwise). */
export interface AdamSettings {
  learningRate: number;
  beta1?: number;
  beta2?: number;
  epsilon?: number;
}

/** tf.train.adam with PyTorch's defaults (epsilon 1e-8). */
export function createAdamOptimizer(settings: AdamSettings): tf.AdamOptimizer {
  // tfjs's Adam, each weight's update (clipping's scale included) one kernel on wasm.
  return new FusedAdamOptimizer(settings.learningRate, settings.beta1 ?? 0.9, settings.beta2 ?? 0.999, settings.epsilon ?? 1e-8);
}

/** Changes an Adam optimizer's learning rate in place (for schedules; tfjs keeps it as a field). */
export function setLearningRate(optimizer: tf.AdamOptimizer, learningRate: number): void {
  (optimizer as unknown as { learningRate: number }).learningRate = learningRate;
}

/** Gradients scaled to a global norm, with the norm they had before. */
export interface ClippedGradients {
  gradients: tf.Tensor[];
  /** Global L2 norm before clipping. */
  norm: tf.Scalar;
}

/** √Σ‖g‖² over all gradients. */
function globalNorm(gradients: readonly tf.Tensor[]): tf.Scalar {
  return tf.tidy(() => tf.sqrt(tf.addN(gradients.map((gradient) => tf.sum(tf.square(gradient))))) as tf.Scalar);
}

/** Scales gradients so their global L2 norm is at most maxNorm (PyTorch's clip_grad_norm_). */
export function clipByGlobalNorm(gradients: readonly tf.Tensor[], maxNorm: number): ClippedGradients {
  return tf.tidy(() => {
    const norm = globalNorm(gradients);
    const scale = tf.minimum(1, tf.div(maxNorm, tf.add(norm, 1e-6)));
    return { gradients: gradients.map((gradient) => tf.mul(gradient, scale)), norm };
  });
}

/** The gradient clipping applyLoss uses. */
export interface ApplyLossOptions {
  /** Clip the global gradient norm to this (default 1; Infinity turns clipping off). */
  maxGradientNorm?: number;
}

/** What one optimizer step on a loss reports: the loss and the gradient norm before clipping. */
export interface ApplyLossResult {
  loss: number;
  gradientNorm: number;
}

/** A FusedAdamOptimizer (tfjs optimizers answer `instanceof` for any optimizer, so look for its method). */
function isFusedAdam(optimizer: tf.Optimizer): optimizer is FusedAdamOptimizer {
  return typeof (optimizer as Partial<FusedAdamOptimizer>).applyScaledGradients === 'function';
}

/**
 * Clips gradients (canonical variable order) to a global norm and lets the optimizer apply them.
 * Returns the norm before clipping. The caller still owns `gradients`.
 */
export function applyGradients(model: VisionLanguageModel, optimizer: tf.Optimizer, gradients: readonly tf.Tensor[], maxGradientNorm = 1): number {
  const variables = model.trainableVariables;
  if (gradients.length !== variables.length) {
    throw new InvalidArgumentError({ argument: 'gradients', expected: `${variables.length} tensors (one per weight)`, value: `${gradients.length} tensors` });
  }
  const maxNorm = Number.isFinite(maxGradientNorm) ? maxGradientNorm : Number.MAX_VALUE;
  if (isFusedAdam(optimizer) && fusedAdamAvailable()) {
    // The norm as clipByGlobalNorm computes it; its scale, in float32 as tf ops would, goes into the fused update.
    const norm = timePhase('clip', () => {
      const normTensor = globalNorm(gradients);
      const value = normTensor.dataSync()[0] ?? NaN;
      normTensor.dispose();
      return value;
    });
    const scale = Math.min(1, Math.fround(Math.fround(maxNorm) / Math.fround(norm + Math.fround(1e-6))));
    timePhase('adam', () => optimizer.applyScaledGradients(variables.map((variable, index) => ({ name: variable.name, tensor: gradients[index]! })), scale));
    return norm;
  }
  const clipped = timePhase('clip', () => clipByGlobalNorm(gradients, maxNorm));
  timePhase('adam', () => optimizer.applyGradients(variables.map((variable, index) => ({ name: variable.name, tensor: clipped.gradients[index] as tf.Tensor }))));
  const norm = clipped.norm.dataSync()[0] ?? NaN;
  tf.dispose([clipped.norm, ...clipped.gradients]);
  return norm;
}

/**
 * One optimizer step on a scalar loss over the model's weights: gradients, global-norm clipping,
 * Adam. Weights that the loss does not reach get zero gradients so Adam's slots stay in order.
 */
export function applyLoss(
  model: VisionLanguageModel,
  optimizer: tf.Optimizer,
  loss: () => tf.Scalar,
  options: ApplyLossOptions = {},
): ApplyLossResult {
  const variables = model.trainableVariables;
  const { value, grads } = tf.variableGrads(loss, variables);
  const ordered = variables.map((variable) => grads[variable.name] ?? tf.zerosLike(variable));
  const gradientNorm = applyGradients(model, optimizer, ordered, options.maxGradientNorm ?? 1);
  const result = { loss: value.dataSync()[0] ?? NaN, gradientNorm };
  tf.dispose([value, ...ordered, ...Object.values(grads)]);
  return result;
}
