import { getKernel } from '@tensorflow/tfjs-core';
import { GELU_GRAD_KERNEL, GELU_KERNEL } from './kernels/gelu.js';
import { simdKernelsStatus } from './kernels/simd-kernels.js';
import { tf } from './tf.js';

const GELU_SCALE = Math.sqrt(2 / Math.PI);
const GELU_CUBIC = 0.044715;

/** The fused kernels run when the backend is wasm, they are registered and the SIMD module loads. */
function fused(x: tf.Tensor): boolean {
  return x.dtype === 'float32' && tf.getBackend() === 'wasm' && getKernel(GELU_KERNEL, 'wasm') !== undefined && simdKernelsStatus(tf.backend()).available;
}

/** GELU as float32 elementwise ops: what every backend runs, and what the fused kernels match bit for bit. */
const composite = tf.customGrad((...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
  const [x, save] = args as [tf.Tensor, tf.GradSaveFunc];
  const square = tf.mul(x, x);
  const tanh = tf.tanh(tf.mul(tf.mul(x, tf.add(tf.mul(square, GELU_CUBIC), 1)), GELU_SCALE));
  save([x, square, tanh]);
  return {
    value: tf.mul(tf.mul(x, 0.5), tf.add(tanh, 1)),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [input, squared, t] = saved as [tf.Tensor, tf.Tensor, tf.Tensor];
      // d/dx 0.5x(1+t) = 0.5(1+t) + 0.5x(1-t²)·c(1+3ax²)
      const slope = tf.mul(tf.add(tf.mul(squared, 3 * GELU_CUBIC), 1), GELU_SCALE);
      const local = tf.add(tf.mul(tf.add(t, 1), 0.5), tf.mul(tf.mul(tf.mul(input, 0.5), tf.sub(1, tf.mul(t, t))), slope));
      return [tf.mul(dy, local)];
    },
  };
}) as (x: tf.Tensor) => tf.Tensor;

/** GELU in one kernel each way, the gradient recomputing tanh from x instead of keeping two activations. */
const fusedGelu = tf.customGrad((...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
  const [x, save] = args as [tf.Tensor, tf.GradSaveFunc];
  save([x]);
  return {
    value: tf.engine().runKernel(GELU_KERNEL, { x }) as tf.Tensor,
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => [tf.engine().runKernel(GELU_GRAD_KERNEL, { x: saved[0]!, dy }) as tf.Tensor],
  };
}) as (x: tf.Tensor) => tf.Tensor;

/**
 * GELU, tanh approximation (PyTorch's `approximate='tanh'`), differentiable. On the wasm backend
 * with Saccade's SIMD kernels, one fused kernel forward and one backward (the same floats as the
 * elementwise form, in 2 passes over the activation instead of 21); elsewhere the elementwise form
 * with a hand-written gradient (the autodiff of `pow(x, 3)` costs more than the rest of an MLP).
 */
export function gelu<T extends tf.Tensor>(x: T): T {
  return (fused(x) ? fusedGelu(x) : composite(x)) as T;
}

/** The elementwise GELU, on any backend: to compare the fused kernels against. */
export function geluElementwise<T extends tf.Tensor>(x: T): T {
  return composite(x) as T;
}
