import type * as tfc from '@tensorflow/tfjs-core';
import type { EncodedImage, OutputOptions } from './encoded-image.js';
import { encodeImage } from './encode-image.js';
import { InvalidImageArgumentError } from './invalid-image-argument-error.js';
import type { Normalization, TensorFlowLike } from './to-tensor.js';

/** The normalisation fromTensor undoes before encoding, and the output encoding. */
export interface FromTensorOptions extends OutputOptions {
  /** Undo this normalisation first (the one given to toTensor). */
  normalize?: Normalization;
}

/**
 * Encodes a tensor [height, width, 1|3|4] or [1, height, width, 1|3|4] as an image (PNG by
 * default). float32 values are read as [0, 1] (after undoing `normalize`), int32 as [0, 255];
 * both are clamped. The scaling runs inside tf.tidy and the input tensor is left to its owner.
 */
export async function fromTensor(
  tensor: tfc.Tensor,
  tf: TensorFlowLike,
  options: FromTensorOptions = {},
): Promise<EncodedImage> {
  const shape = tensor.shape.length === 4 && tensor.shape[0] === 1 ? tensor.shape.slice(1) : tensor.shape;
  const [height = 0, width = 0, channels = 0] = shape;
  if (shape.length !== 3 || ![1, 3, 4].includes(channels) || height < 1 || width < 1) {
    throw new InvalidImageArgumentError({
      argument: 'tensor',
      expected: 'shape [height, width, 1|3|4] or [1, height, width, 1|3|4]',
      received: `shape [${tensor.shape.join(', ')}]`,
    });
  }
  if (options.normalize !== undefined && channels !== 3) {
    throw new InvalidImageArgumentError({
      argument: 'normalize',
      expected: 'a tensor with 3 channels to undo a normalisation on',
      received: `${channels} channels`,
    });
  }
  const bytesTensor = tf.tidy(() => {
    let values = tf.cast(tf.reshape(tensor, [height, width, channels]), 'float32');
    if (tensor.dtype !== 'int32') {
      if (options.normalize !== undefined) {
        values = tf.add(tf.mul(values, [...options.normalize.std]), [...options.normalize.mean]);
      }
      values = tf.mul(values, 255);
    }
    return tf.cast(tf.clipByValue(tf.round(values), 0, 255), 'int32');
  });
  try {
    const data = Uint8Array.from(await bytesTensor.data());
    const rgb = channels === 1 ? expandGrey(data) : data;
    return await encodeImage({ data: rgb, width, height, channels: channels === 4 ? 4 : 3 }, options.format ?? 'image/png', options);
  } finally {
    bytesTensor.dispose();
  }
}

function expandGrey(grey: Uint8Array): Uint8Array {
  const rgb = new Uint8Array(grey.length * 3);
  for (let index = 0; index < grey.length; index += 1) rgb.fill(grey[index] ?? 0, index * 3, index * 3 + 3);
  return rgb;
}
