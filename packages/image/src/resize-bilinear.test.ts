import { describe, expect, it } from 'vitest';
import type { RawImage } from './encoded-image.js';
import { InvalidImageArgumentError } from './invalid-image-argument-error.js';
import { resizeBilinear } from './resize-bilinear.js';

/** A one-row image whose red channel holds `reds`, green 10 × red, blue 0, with `channels` channels. */
function row(reds: readonly number[], channels: 3 | 4): RawImage {
  const data = new Uint8Array(reds.length * channels);
  reds.forEach((red, index) => data.set(channels === 3 ? [red, Math.min(255, red * 10), 0] : [red, Math.min(255, red * 10), 0, 7], index * channels));
  return { data, width: reds.length, height: 1, channels };
}

describe('resizeBilinear', () => {
  it('upsamples with half-pixel centres, clamping at the borders (OpenCV INTER_LINEAR)', () => {
    // 2 → 4 pixels: source x = (x + 0.5) / 2 - 0.5 = -0.25, 0.25, 0.75, 1.25, clamped to [0, 1].
    expect(Array.from(resizeBilinear(row([0, 20], 3), 4, 1))).toEqual([0, 0, 0, 5, 50, 0, 15, 150, 0, 20, 200, 0]);
  });

  it('downsamples by averaging the two nearest pixels, and drops an alpha channel', () => {
    // 4 → 2 pixels: source x = 0.5 and 2.5.
    expect(Array.from(resizeBilinear(row([0, 10, 20, 25], 4), 2, 1))).toEqual([5, 50, 0, 22.5, 225, 0]);
  });

  it('interpolates along both axes', () => {
    // 2 × 2 grey square (0, 40 / 80, 120) → 1 × 1: the mean of the four pixels.
    const data = Uint8Array.from([0, 40, 80, 120].flatMap((value) => [value, value, value]));
    expect(Array.from(resizeBilinear({ data, width: 2, height: 2, channels: 3 }, 1, 1))).toEqual([60, 60, 60]);
  });

  it('says what it expected of a size', () => {
    expect(() => resizeBilinear(row([1, 2], 3), -1, 1)).toThrow(new InvalidImageArgumentError({ argument: 'width', expected: 'a positive integer', received: '-1', value: -1 }));
    expect(() => resizeBilinear(row([1, 2], 3), 0, 1)).toThrow('Invalid width: expected a positive integer, received 0.');
    expect(() => resizeBilinear(row([1, 2], 3), 2, 1.5)).toThrow('Invalid height: expected a positive integer, received 1.5.');
  });
});
