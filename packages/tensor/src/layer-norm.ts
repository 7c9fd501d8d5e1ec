import { getKernel } from '@tensorflow/tfjs-core';
import { LAYER_NORM_GRAD_KERNEL, LAYER_NORM_KERNEL } from './kernels/layer-norm.js';
import { simdKernelsStatus } from './kernels/simd-kernels.js';
import { tf } from './tf.js';

type LayerNormFunc = (x: tf.Tensor, gain: tf.Tensor, bias: tf.Tensor) => tf.Tensor;

/**
 * The fused kernels run when the backend is wasm, they are registered, the SIMD module loads, the
 * operands are float32, x is not empty and gain and bias are [d] (x's last axis).
 */
function fused(x: tf.Tensor, gain: tf.Tensor, bias: tf.Tensor): boolean {
  const d = x.shape[x.rank - 1];
  return (
    x.rank >= 1 &&
    x.size > 0 &&
    [x, gain, bias].every((tensor) => tensor.dtype === 'float32') &&
    [gain, bias].every((vector) => vector.rank === 1 && vector.shape[0] === d) &&
    tf.getBackend() === 'wasm' &&
    getKernel(LAYER_NORM_KERNEL, 'wasm') !== undefined &&
    getKernel(LAYER_NORM_GRAD_KERNEL, 'wasm') !== undefined &&
    simdKernelsStatus(tf.backend()).available
  );
}

/**
 * Layer norm as tfjs ops with a hand-written gradient (about half the kernels of the autodiff of
 * moments and rsqrt): what every backend runs, and what the fused kernels match.
 */
function composite(epsilon: number): LayerNormFunc {
  return tf.customGrad((...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
    const [input, g, b, save] = args as [tf.Tensor, tf.Tensor, tf.Tensor, tf.GradSaveFunc];
    const centred = tf.sub(input, tf.mean(input, -1, true));
    const inverse = tf.rsqrt(tf.add(tf.mean(tf.mul(centred, centred), -1, true), epsilon));
    const normalised = tf.mul(centred, inverse);
    save([normalised, inverse, g]);
    return {
      value: tf.add(tf.mul(normalised, g), b),
      gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
        const [xHat, inv, gainValue] = saved as [tf.Tensor, tf.Tensor, tf.Tensor];
        const rowAxes = Array.from({ length: dy.rank - 1 }, (_, axis) => axis);
        const dxHat = tf.mul(dy, gainValue);
        // dx = inv · (dxHat − mean(dxHat) − xHat · mean(dxHat · xHat))
        const dx = tf.mul(tf.sub(tf.sub(dxHat, tf.mean(dxHat, -1, true)), tf.mul(xHat, tf.mean(tf.mul(dxHat, xHat), -1, true))), inv);
        return [dx, tf.sum(tf.mul(dy, xHat), rowAxes), tf.sum(dy, rowAxes)];
      },
    };
  }) as LayerNormFunc;
}

/**
 * Layer norm in one kernel each way: the forward keeps each row's mean and inverse ([rows] each),
 * and the gradient recomputes x̂ from x and them instead of keeping a normalised copy of x.
 */
function fusedKernels(epsilon: number): LayerNormFunc {
  // ε as the ops' float32 scalar holds it.
  const attrs = { epsilon: Math.fround(epsilon) };
  return tf.customGrad((...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
    const [x, gain, bias, save] = args as [tf.Tensor, tf.Tensor, tf.Tensor, tf.GradSaveFunc];
    const [y, mean, inverse] = tf.engine().runKernel(LAYER_NORM_KERNEL, { x, gain, bias }, { ...attrs }) as tf.Tensor[];
    save([x, gain, mean!, inverse!]);
    return {
      value: y!,
      gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
        const [savedX, savedGain, savedMean, savedInverse] = saved as [tf.Tensor, tf.Tensor, tf.Tensor, tf.Tensor];
        return tf.engine().runKernel(LAYER_NORM_GRAD_KERNEL, { x: savedX, gain: savedGain, mean: savedMean, inverse: savedInverse, dy }) as tf.Tensor[];
      },
    };
  }) as LayerNormFunc;
}

/**
 * Layer norm over the last axis of x (any rank, `[rows, d]` in the models), differentiable in x,
 * gain and bias ([d] each): centred = x − mean(x), inverse = 1/√(mean(centred²) + ε),
 * y = centred·inverse·gain + bias; the gradient dx = inverse·(ĝ − mean(ĝ) − x̂·mean(ĝ·x̂)) with
 * ĝ = dy·gain and x̂ = centred·inverse, dgain = Σ_rows dy·x̂, dbias = Σ_rows dy.
 *
 * On the wasm backend with Saccade's SIMD kernels, one kernel each way (`SaccadeLayerNorm`,
 * `SaccadeLayerNormGrad`) running the ops' float operations in their order, so the same floats;
 * elsewhere (and for a gain or bias of another shape) the ops with a hand-written gradient
 * (`layerNormOps`).
 */
export function layerNorm<T extends tf.Tensor>(x: T, gain: tf.Tensor, bias: tf.Tensor, epsilon: number): T {
  return (fused(x, gain, bias) ? fusedKernels(epsilon) : composite(epsilon))(x, gain, bias) as T;
}

/** The layer norm as tfjs ops, on any backend: to compare the fused kernels against. */
export function layerNormOps<T extends tf.Tensor>(x: T, gain: tf.Tensor, bias: tf.Tensor, epsilon: number): T {
  return composite(epsilon)(x, gain, bias) as T;
}
