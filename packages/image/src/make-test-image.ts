import type { RawImage } from './encoded-image.js';

/**
 * A test image whose pixels say where they are: red = x, green = y, blue = `blue`. Crops, offsets
 * and rotations can then be checked pixel for pixel. Width and height must be ≤ 256.
 */
export function makeCoordinateImage(width: number, height: number, blue = 7): RawImage {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) data.set([x, y, blue], (y * width + x) * 3);
  }
  return { data, width, height, channels: 3 };
}

/** A solid RGB image. */
export function makeSolidImage(width: number, height: number, rgb: readonly [number, number, number]): RawImage {
  const data = new Uint8Array(width * height * 3);
  for (let index = 0; index < width * height; index += 1) data.set(rgb, index * 3);
  return { data, width, height, channels: 3 };
}

/** The pixel at (x, y) of a raw image, as an array of its channels. */
export function pixelAt(image: RawImage, x: number, y: number): number[] {
  const start = (y * image.width + x) * image.channels;
  return [...image.data.subarray(start, start + image.channels)];
}
