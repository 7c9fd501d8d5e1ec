import * as tf from '@tensorflow/tfjs-core';
import { smoothMaximum } from '@saccade/tensor';

/** The convolutional stem's shape (vision.stem with kernel > 1, and the image's patch grid). */
export interface ConvStemShape {
  /** Patches along each side of an image. */
  grid: number;
  patchSize: number;
  /** Side of the pooled blocks in pixels (a divisor of patchSize). */
  pool: number;
  /** Side of the convolution in pixels (odd). */
  kernel: number;
  pooling: 'mean' | 'max';
  /** β of the smooth maximum. */
  sharpness: number;
}

/**
 * The pixel stem as a k × k convolution: the patches of whole images ([images·grid², patchSize²·3],
 * rows (py, px, channel) as writePatches lays them) laid back out as images, relu(conv(x, W) + b)
 * with zero padding ('same'), pooled over pool × pool blocks (a mean, or the smooth maximum
 * (1/β)·log mean exp(β·f)), and returned per patch as the per-pixel stem returns it:
 * [images·grid², (patchSize/pool)²·C], blocks row-major, channels last. `weight` is [k²·3, C],
 * (row, column, channel) flattened.
 */
export function convStem(patches: tf.Tensor2D, weight: tf.Tensor, bias: tf.Tensor, shape: ConvStemShape): tf.Tensor2D {
  const { grid, patchSize: patch, pool, kernel, pooling, sharpness } = shape;
  const channels = weight.shape[1] ?? 0;
  if (weight.rank !== 2 || weight.shape[0] !== kernel * kernel * 3) {
    throw new Error(`convStem: weight must be [${kernel * kernel * 3}, channels] (a ${kernel} × ${kernel} kernel over 3 values); got [${weight.shape.join(', ')}]`);
  }
  const perImage = grid * grid;
  if (patches.shape[0] % perImage !== 0) throw new Error(`convStem: expected whole images of ${perImage} patches; got ${patches.shape[0]} patches`);
  return tf.tidy(() => {
    const images = patches.shape[0] / perImage;
    const side = grid * patch;
    const pixels = tf.reshape(tf.transpose(tf.reshape(patches, [images, grid, grid, patch, patch, 3]), [0, 1, 3, 2, 4, 5]), [images, side, side, 3]) as tf.Tensor4D;
    const features = tf.relu(tf.add(tf.conv2d(pixels, tf.reshape(weight, [kernel, kernel, 3, channels]) as tf.Tensor4D, 1, 'same'), bias));
    const blocks = side / pool;
    const grouped = tf.reshape(features, [images, blocks, pool, blocks, pool, channels]);
    const pooled =
      pooling === 'max' && pool > 1
        ? smoothMaximum(grouped, [2, 4], sharpness)
        : tf.reshape(tf.mean(grouped, [2, 4]), [images, blocks, blocks, channels]);
    const perPatch = patch / pool;
    return tf.reshape(tf.transpose(tf.reshape(pooled, [images, grid, perPatch, grid, perPatch, channels]), [0, 1, 3, 2, 4, 5]), [images * perImage, perPatch * perPatch * channels]) as tf.Tensor2D;
  });
}
