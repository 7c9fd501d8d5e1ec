import { getKernel, type NamedTensorMap } from '@tensorflow/tfjs-core';
import { ADAM_KERNEL } from './kernels/adam.js';
import { simdKernelsStatus } from './kernels/simd-kernels.js';
import { tf } from './tf.js';

type NamedTensor = { name: string; tensor: tf.Tensor };

// tfjs's AdamOptimizer keeps these private; this class is its subclass and uses them as it does.
interface AdamInternals {
  accBeta1: tf.Variable;
  accBeta2: tf.Variable;
  accumulatedFirstMoment: { originalName: string; variable: tf.Variable }[];
  accumulatedSecondMoment: { originalName: string; variable: tf.Variable }[];
  incrementIterations(): void;
}

/**
 * tfjs's Adam with each weight's update in one kernel on the wasm backend (Saccade's SIMD kernels)
 * instead of fourteen: the same floats (the kernel runs tfjs's operations in its order), the same
 * slots, names and checkpoints. `applyScaledGradients` also folds gradient clipping's scale into
 * that kernel. Elsewhere, or without the kernels, it is tfjs's Adam.
 */
export class FusedAdamOptimizer extends tf.AdamOptimizer {
  override applyGradients(variableGradients: NamedTensor[] | NamedTensorMap): void {
    this.applyScaledGradients(variableGradients, 1);
  }

  /** Applies `scale`·gradient (gradient clipping's factor), as float32 like tf.mul would. */
  applyScaledGradients(variableGradients: NamedTensor[] | NamedTensorMap, scale: number): void {
    const named = Array.isArray(variableGradients) ? variableGradients : Object.entries(variableGradients).map(([name, tensor]) => ({ name, tensor }));
    if (!fusedAdamAvailable()) {
      if (scale === 1) super.applyGradients(named);
      else tf.tidy(() => super.applyGradients(named.map(({ name, tensor }) => ({ name, tensor: tf.mul(tensor, scale) }))));
      return;
    }
    const self = this as unknown as AdamInternals;
    tf.tidy(() => {
      const correction1 = tf.sub(1, self.accBeta1).dataSync()[0]!;
      const correction2 = tf.sub(1, self.accBeta2).dataSync()[0]!;
      const attrs = { scale: Math.fround(scale), beta1: this.beta1, beta2: this.beta2, correction1, correction2, epsilon: this.epsilon, learningRate: this.learningRate };
      named.forEach(({ name, tensor: gradient }, index) => {
        const value = tf.engine().registeredVariables[name];
        if (value === undefined) throw new Error(`FusedAdamOptimizer: no variable named ${name}`);
        self.accumulatedFirstMoment[index] ??= { originalName: `${name}/m`, variable: tf.tidy(() => tf.zerosLike(value).variable(false)) };
        self.accumulatedSecondMoment[index] ??= { originalName: `${name}/v`, variable: tf.tidy(() => tf.zerosLike(value).variable(false)) };
        if (gradient == null) return;
        const m = self.accumulatedFirstMoment[index]!.variable;
        const v = self.accumulatedSecondMoment[index]!.variable;
        const [x, first, second] = tf.engine().runKernel(ADAM_KERNEL, { x: value, gradient, m, v }, attrs as never) as tf.Tensor[];
        value.assign(x!);
        m.assign(first!);
        v.assign(second!);
      });
      self.accBeta1.assign(tf.mul(self.accBeta1, this.beta1));
      self.accBeta2.assign(tf.mul(self.accBeta2, this.beta2));
    });
    self.incrementIterations();
  }
}

/** Whether FusedAdamOptimizer runs its kernel here (wasm backend, kernel registered, SIMD module loaded). */
export function fusedAdamAvailable(): boolean {
  return tf.getBackend() === 'wasm' && getKernel(ADAM_KERNEL, 'wasm') !== undefined && simdKernelsStatus(tf.backend()).available;
}
