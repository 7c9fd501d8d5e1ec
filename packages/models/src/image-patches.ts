import { averagePixels } from '@saccade/image/pixels';
import type { ModelConfig } from './model-config';
import type { RgbImage } from './rgb-image';

/**
 * Resizes in JS: a box average when the size is an integer multiple (an env's 256 px render to
 * 64 px keeps cell colours exact; @saccade/image's `averagePixels`), nearest neighbour otherwise.
 * Decoders should resize first.
 */
export function resizeRgb(image: RgbImage, size: number): RgbImage {
  if (image.width === size && image.height === size) return image;
  const boxX = image.width / size;
  const boxY = image.height / size;
  if (Number.isInteger(boxX) && Number.isInteger(boxY)) {
    const { data } = averagePixels({ ...image, channels: 3 }, { width: size, height: size });
    return { width: size, height: size, data };
  }
  const data = new Uint8Array(size * size * 3);
  for (let y = 0; y < size; y++) {
    const sourceY = Math.min(image.height - 1, Math.floor((y + 0.5) * boxY));
    for (let x = 0; x < size; x++) {
      const sourceX = Math.min(image.width - 1, Math.floor((x + 0.5) * boxX));
      for (let channel = 0; channel < 3; channel++) data[(y * size + x) * 3 + channel] = image.data[(sourceY * image.width + sourceX) * 3 + channel] ?? 0;
    }
  }
  return { width: size, height: size, data };
}

/**
 * Writes an image's patches, row-major over the grid, each flattened (py, px, channel) and scaled
 * to [-0.5, 0.5], into `target` from `offset`. Returns the offset after the last value.
 */
export function writePatches(config: ModelConfig, image: RgbImage, target: Float32Array, offset: number): number {
  if (image.data.length !== image.width * image.height * 3) {
    throw new RangeError(`RgbImage data has ${image.data.length} bytes; expected ${image.width}×${image.height}×3.`);
  }
  const resized = resizeRgb(image, config.imageSize);
  const { imageSize: size, patchSize: patch } = config;
  const grid = size / patch;
  let index = offset;
  for (let row = 0; row < grid; row++) {
    for (let column = 0; column < grid; column++) {
      for (let py = 0; py < patch; py++) {
        const start = ((row * patch + py) * size + column * patch) * 3;
        for (let value = 0; value < patch * 3; value++) {
          target[index++] = (resized.data[start + value] ?? 0) / 255 - 0.5;
        }
      }
    }
  }
  return index;
}
