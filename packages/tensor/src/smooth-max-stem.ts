import { getKernel } from '@tensorflow/tfjs-core';
import { SMOOTH_MAX_STEM_GRAD_KERNEL, SMOOTH_MAX_STEM_KERNEL, type SmoothMaxStemAttrs } from './kernels/smooth-max-stem.js';
import { simdKernelsStatus } from './kernels/simd-kernels.js';
import { tf } from './tf.js';

/** The pixel stem's shape: patch side and block side in pixels, and β of the smooth maximum. */
export type SmoothMaxStemOptions = SmoothMaxStemAttrs;

function checkShapes(pixels: tf.Tensor, weight: tf.Tensor, bias: tf.Tensor, options: SmoothMaxStemOptions): void {
  const { patchSize, pool, sharpness } = options;
  const fail = (message: string): never => {
    throw new Error(`smoothMaxStem: ${message}`);
  };
  if (!Number.isInteger(patchSize) || !Number.isInteger(pool) || pool <= 0 || patchSize % pool !== 0) fail(`pool must be a positive divisor of patchSize; got pool ${pool}, patchSize ${patchSize}`);
  if (!(sharpness > 0)) fail(`sharpness must be > 0; got ${sharpness}`);
  if (weight.rank !== 2 || weight.shape[0] !== 3) fail(`weight must be [3, channels]; got [${weight.shape.join(', ')}]`);
  if (bias.rank !== 1 || bias.shape[0] !== weight.shape[1]) fail(`bias must be [${weight.shape[1]}]; got [${bias.shape.join(', ')}]`);
  if (pixels.rank !== 2 || pixels.shape[1] !== patchSize * patchSize * 3) fail(`pixels must be [patches, ${patchSize * patchSize * 3}] (${patchSize}² pixels of 3 values); got [${pixels.shape.join(', ')}]`);
}

/**
 * The stem as tfjs ops, differentiated by tfjs: what every backend other than wasm runs, and what
 * the fused kernels are tested against. tfjs's logSumExp subtracts the block's max and
 * differentiates it too (a broadcast comparison over every feature), though its gradient cancels.
 */
export function smoothMaxStemOps(pixels: tf.Tensor2D, weight: tf.Tensor, bias: tf.Tensor, options: SmoothMaxStemOptions): tf.Tensor2D {
  checkShapes(pixels, weight, bias, options);
  const { patchSize: side, pool, sharpness } = options;
  const channels = weight.shape[1] ?? 0;
  return tf.tidy(() => {
    const count = pixels.shape[0];
    const features = tf.relu(tf.add(tf.matMul(tf.reshape(pixels, [count * side * side, 3]) as tf.Tensor2D, weight as tf.Tensor2D), bias));
    const blocks = tf.reshape(features, [count, side / pool, pool, side / pool, pool, channels]);
    const pooled = tf.div(tf.sub(tf.logSumExp(tf.mul(blocks, sharpness), [2, 4]), Math.log(pool * pool)), sharpness);
    return tf.reshape(pooled, [count, (side / pool) ** 2 * channels]);
  });
}

/** The fused kernels run when the backend is wasm, they are registered and the SIMD module loads. */
function fused(pixels: tf.Tensor, weight: tf.Tensor, bias: tf.Tensor): boolean {
  return (
    pixels.dtype === 'float32' &&
    weight.dtype === 'float32' &&
    bias.dtype === 'float32' &&
    tf.getBackend() === 'wasm' &&
    getKernel(SMOOTH_MAX_STEM_KERNEL, 'wasm') !== undefined &&
    getKernel(SMOOTH_MAX_STEM_GRAD_KERNEL, 'wasm') !== undefined &&
    simdKernelsStatus(tf.backend()).available
  );
}

function fusedStem(pixels: tf.Tensor2D, weight: tf.Tensor, bias: tf.Tensor, options: SmoothMaxStemOptions): tf.Tensor2D {
  const attrs = { patchSize: options.patchSize, pool: options.pool, sharpness: options.sharpness };
  // Pixels are image data: only the weight and bias are inputs of the gradient. Pixels are saved
  // all the same, so that the backward pass still has them after the caller's tidy ends.
  const stem = tf.customGrad((...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
    const [w, b, save] = args as [tf.Tensor, tf.Tensor, tf.GradSaveFunc];
    save([pixels, w, b]);
    return {
      value: tf.engine().runKernel(SMOOTH_MAX_STEM_KERNEL, { pixels, weight: w, bias: b }, { ...attrs }) as tf.Tensor,
      gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
        const [p, savedWeight, savedBias] = saved as [tf.Tensor, tf.Tensor, tf.Tensor];
        return tf.engine().runKernel(SMOOTH_MAX_STEM_GRAD_KERNEL, { pixels: p, weight: savedWeight, bias: savedBias, dy }, { ...attrs }) as tf.Tensor[];
      },
    };
  }) as (w: tf.Tensor, b: tf.Tensor) => tf.Tensor2D;
  return stem(weight, bias);
}

/**
 * A per-pixel stem with smooth-max pooling: relu(p·W + b) for every pixel p of each patch (rows of
 * `pixels`: patchSize² pixels of 3 values, (row, column, value) flattened), then in each pool × pool
 * block of a patch (1/β)·log mean e^(β·f) per channel. Returns [patches, (patchSize/pool)²·channels],
 * blocks in row order, channels last.
 *
 * On the wasm backend with Saccade's SIMD kernels, one kernel each way that never stores the
 * per-pixel features (`SaccadeSmoothMaxStem`, `SaccadeSmoothMaxStemGrad`); the gradient is the block's
 * softmax weights × dy, and flows to `weight` and `bias` only (pixels are data). Elsewhere the tfjs
 * ops (`smoothMaxStemOps`).
 */
export function smoothMaxStem(pixels: tf.Tensor2D, weight: tf.Tensor, bias: tf.Tensor, options: SmoothMaxStemOptions): tf.Tensor2D {
  checkShapes(pixels, weight, bias, options);
  return fused(pixels, weight, bias) ? fusedStem(pixels, weight, bias, options) : smoothMaxStemOps(pixels, weight, bias, options);
}
