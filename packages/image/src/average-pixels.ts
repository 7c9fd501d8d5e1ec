import type { RawImage } from './encoded-image.js';
import { InvalidImageArgumentError } from './invalid-image-argument-error.js';

/**
 * Resizes pixels by averaging, in plain JS: output pixel (x, y) is the rounded mean of the source
 * pixels in columns ⌊x·W/w⌋ … ⌊(x+1)·W/w⌋ − 1 and the rows likewise (at least one of each), every
 * channel. An integer factor gives exact k × k boxes, so a 256 px grid render shrunk to 64 px keeps
 * its cells' colours where a filter would ring. The built-in model's view and the TUI's thumbnails
 * are made with it. Throws InvalidImageArgumentError for a size that is not a positive integer or
 * pixels that do not fill width × height × channels.
 */
export function averagePixels(image: RawImage, size: { width: number; height: number }): RawImage {
  const { width: sourceWidth, height: sourceHeight, channels } = image;
  for (const [name, value] of [['width', size.width], ['height', size.height]] as const) {
    if (!(Number.isInteger(value) && value >= 1)) throw new InvalidImageArgumentError({ argument: name, expected: 'an integer ≥ 1', received: String(value), value });
  }
  if (image.data.length !== sourceWidth * sourceHeight * channels) {
    throw new InvalidImageArgumentError({
      argument: 'image.data',
      expected: `${sourceWidth}×${sourceHeight}×${channels} = ${sourceWidth * sourceHeight * channels} bytes`,
      received: `${image.data.length} bytes`,
    });
  }
  const { width, height } = size;
  // Integer bounds (no x / w · W in floating point, which can land one pixel short).
  const columns = boxBounds(width, sourceWidth);
  const rows = boxBounds(height, sourceHeight);
  const data = new Uint8Array(width * height * channels);
  const sums = new Float64Array(channels);
  for (let y = 0; y < height; y++) {
    const top = rows[2 * y]!;
    const bottom = rows[2 * y + 1]!;
    for (let x = 0; x < width; x++) {
      const left = columns[2 * x]!;
      const right = columns[2 * x + 1]!;
      sums.fill(0);
      for (let sourceY = top; sourceY < bottom; sourceY++) {
        let offset = (sourceY * sourceWidth + left) * channels;
        for (let sourceX = left; sourceX < right; sourceX++) {
          for (let channel = 0; channel < channels; channel++) sums[channel]! += image.data[offset++]!;
        }
      }
      const count = (bottom - top) * (right - left);
      const target = (y * width + x) * channels;
      for (let channel = 0; channel < channels; channel++) data[target + channel] = Math.round(sums[channel]! / count);
    }
  }
  return { data, width, height, channels };
}

/** [start, end) of each output pixel's box along one side, as pairs. */
function boxBounds(size: number, sourceSize: number): Int32Array {
  const bounds = new Int32Array(2 * size);
  for (let index = 0; index < size; index++) {
    const start = Math.min(Math.floor((index * sourceSize) / size), sourceSize - 1);
    bounds[2 * index] = start;
    bounds[2 * index + 1] = Math.min(sourceSize, Math.max(start + 1, Math.floor(((index + 1) * sourceSize) / size)));
  }
  return bounds;
}
