import { describe, expect, it } from 'vitest';
import { ssim, toGray } from './ssim';

const image = (width: number, height: number, value: (x: number, y: number) => number) => ({
  width,
  height,
  data: Float64Array.from({ length: width * height }, (_, i) => value(i % width, Math.floor(i / width))),
});

describe('ssim', () => {
  it('is 1 for identical images', () => {
    const a = image(16, 16, (x, y) => (x * 37 + y * 11) % 256);
    expect(ssim(a, a)).toBeCloseTo(1, 12);
  });

  it('reduces to the luminance term on flat images: (2ab + C1) / (a² + b² + C1)', () => {
    const c1 = (0.01 * 255) ** 2;
    expect(ssim(image(8, 8, () => 100), image(8, 8, () => 150))).toBeCloseTo((2 * 100 * 150 + c1) / (100 ** 2 + 150 ** 2 + c1), 12);
  });

  it('is symmetric, below 1 for noise, and negative for an inverted pattern', () => {
    const a = image(20, 20, (x, y) => ((x + y) % 2 === 0 ? 0 : 255));
    const b = image(20, 20, (x, y) => ((x + y) % 2 === 0 ? 255 : 0));
    const c = image(20, 20, (x, y) => ((x * 7919 + y * 104729) % 97) * 2);
    expect(ssim(a, b)).toBeLessThan(-0.9);
    expect(ssim(a, c)).toBeCloseTo(ssim(c, a), 12);
    expect(ssim(a, c)).toBeLessThan(0.5);
  });

  it('takes BT.601 luma of RGB pixels, and refuses images of different sizes', () => {
    const gray = toGray({ data: Uint8Array.from([255, 0, 0, 0, 0, 255]), width: 2, height: 1, channels: 3 });
    expect([...gray.data].map((value) => Math.round(value * 1000) / 1000)).toEqual([76.245, 29.07]);
    expect(() => ssim(image(8, 8, () => 0), image(9, 8, () => 0))).toThrow(/expected an image of 8 × 8 \(the size of a\), received "9 × 8"/);
  });
});
