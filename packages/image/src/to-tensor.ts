import type * as tfc from '@tensorflow/tfjs-core';
import type { ImageSource, ReadOptions } from './encoded-image.js';
import { finishRaw } from './finish-image.js';
import { openImage } from './open-image.js';
import { applyResize, type ResizeKernel } from './resize.js';

/**
 * The parts of a tfjs-core namespace the conversions use; pass the whole namespace (`getTf()` from
 * @saccade/tensor, or `import * as tf from '@tensorflow/tfjs-core'`). Taking it as an argument keeps
 * image free of a tfjs dependency and of a second tfjs instance.
 */
export type TensorFlowLike = Pick<typeof tfc, 'tensor3d' | 'tidy' | 'reshape' | 'cast' | 'mul' | 'add' | 'round' | 'clipByValue'>;

/** Per-channel mean and standard deviation, in [0, 1] units, RGB order. */
export interface Normalization {
  mean: readonly [number, number, number];
  std: readonly [number, number, number];
}

/** CLIP's statistics, which Qwen2-VL / Qwen2.5-VL's processor uses. */
export const CLIP_NORMALIZATION: Normalization = {
  mean: [0.48145466, 0.4578275, 0.40821073],
  std: [0.26862954, 0.26130258, 0.27577711],
};

/** ImageNet's per-channel statistics, which torchvision-trained vision encoders expect. */
export const IMAGENET_NORMALIZATION: Normalization = {
  mean: [0.485, 0.456, 0.406],
  std: [0.229, 0.224, 0.225],
};

/**
 * What toTensor does before handing pixels over: an optional resize (and its filter) and an
 * optional normalisation.
 */
export interface ToTensorOptions extends ReadOptions {
  /** Resize (stretching) first; a number means a square. */
  size?: number | { width: number; height: number };
  kernel?: ResizeKernel;
  /** Subtract mean and divide by std per channel after scaling to [0, 1]. Default none. */
  normalize?: Normalization;
}

/**
 * Decodes to a float32 tensor [height, width, 3] in [0, 1] (or normalised). Alpha is dropped onto
 * black. The scaling runs in JS over the decoded bytes, so only the returned tensor is allocated:
 * nothing to leak, and the caller owns (and disposes) the result.
 */
export async function toTensor(source: ImageSource, tf: TensorFlowLike, options: ToTensorOptions = {}): Promise<tfc.Tensor3D> {
  const opened = await openImage(source, options);
  const pipeline = opened.pipeline.toColourspace('srgb').removeAlpha();
  if (options.size !== undefined) {
    const size = typeof options.size === 'number' ? { width: options.size, height: options.size } : options.size;
    applyResize(pipeline, { ...size, fit: 'fill', kernel: options.kernel });
  }
  const { data, width, height, channels } = await finishRaw(opened, pipeline);
  // (v - 255·mean) / (255·std): exactly v / 255 when not normalising.
  const offset = [0, 1, 2].map((channel) => 255 * (options.normalize?.mean[channel] ?? 0));
  const divisor = [0, 1, 2].map((channel) => 255 * (options.normalize?.std[channel] ?? 1));
  const values = new Float32Array(width * height * 3);
  for (let pixel = 0, index = 0; pixel < width * height; pixel += 1) {
    for (let channel = 0; channel < 3; channel += 1, index += 1) {
      values[index] = ((data[pixel * channels + channel] ?? 0) - (offset[channel] ?? 0)) / (divisor[channel] ?? 255);
    }
  }
  return tf.tensor3d(values, [height, width, 3], 'float32');
}
