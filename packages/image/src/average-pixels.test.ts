import { describe, expect, it } from 'vitest';
import { averagePixels } from './average-pixels.js';
import { decodeImage } from './decode-image.js';
import { makeCoordinateImage } from './make-test-image.js';
import { resize } from './resize.js';
import type { RawImage } from './encoded-image.js';

const grey = (width: number, height: number, value: (x: number, y: number) => number): RawImage => ({
  width,
  height,
  channels: 3,
  data: Uint8Array.from({ length: width * height * 3 }, (_, index) => value(Math.floor(index / 3) % width, Math.floor(index / 3 / width))),
});

describe('averagePixels', () => {
  it('an integer factor averages exact k × k boxes, rounding half up', () => {
    // 4 × 2 → 2 × 1: boxes {0, 1, 10, 11} and {2, 3, 12, 13}.
    const shrunk = averagePixels(grey(4, 2, (x, y) => x + 10 * y), { width: 2, height: 1 });
    expect(shrunk).toEqual({ width: 2, height: 1, channels: 3, data: Uint8Array.from([6, 6, 6, 8, 8, 8]) });
  });

  it('other sizes take the pixels from ⌊x·W/w⌋ to ⌊(x+1)·W/w⌋, computed in integers', () => {
    // 90 → 10 is a factor of 9: floating x / w · W would start box 7 at column 62 instead of 63.
    const row = averagePixels(grey(90, 1, (x) => x), { width: 10, height: 1 });
    expect([...row.data.filter((_, index) => index % 3 === 0)]).toEqual([4, 13, 22, 31, 40, 49, 58, 67, 76, 85]);
    // 5 → 2: columns {0, 1} and {2, 3, 4}; 5 → 3: {0}, {1, 2}, {3, 4}.
    expect([...averagePixels(grey(5, 1, (x) => 10 * x), { width: 2, height: 1 }).data.filter((_, i) => i % 3 === 0)]).toEqual([5, 30]);
    expect([...averagePixels(grey(5, 1, (x) => 10 * x), { width: 3, height: 1 }).data.filter((_, i) => i % 3 === 0)]).toEqual([0, 15, 35]);
    // Larger than the source: each pixel repeats.
    expect([...averagePixels(grey(2, 1, (x) => 100 + x), { width: 4, height: 1 }).data.filter((_, i) => i % 3 === 0)]).toEqual([100, 100, 101, 101]);
  });

  it('keeps the channel count (RGBA averages alpha too)', () => {
    const rgba: RawImage = { width: 2, height: 1, channels: 4, data: Uint8Array.from([0, 10, 20, 255, 2, 30, 40, 0]) };
    expect(averagePixels(rgba, { width: 1, height: 1 })).toEqual({ width: 1, height: 1, channels: 4, data: Uint8Array.from([1, 20, 30, 128]) });
  });

  it('names a bad size or short pixel data', () => {
    expect(() => averagePixels(grey(4, 4, () => 0), { width: 0, height: 2 })).toThrow('Invalid width: expected an integer ≥ 1, received 0.');
    expect(() => averagePixels({ width: 4, height: 4, channels: 3, data: new Uint8Array(47) }, { width: 2, height: 2 })).toThrow(
      'Invalid image.data: expected 4×4×3 = 48 bytes, received 47 bytes.',
    );
  });
});

describe('decodeImage with resize', () => {
  it('gives the pixels of resize followed by a decode, in one pass', async () => {
    const source = makeCoordinateImage(100, 50);
    const spec = { width: 37, height: 23 } as const;
    const once = await decodeImage(source, { channels: 3, resize: spec });
    const twice = await decodeImage(await resize(source, { ...spec, format: 'image/png' }), { channels: 3 });
    expect([once.width, once.height, once.channels]).toEqual([37, 23, 3]);
    expect(Buffer.from(once.data).equals(Buffer.from(twice.data))).toBe(true);
  });
});
