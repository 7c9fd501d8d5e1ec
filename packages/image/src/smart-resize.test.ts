import { describe, expect, it } from 'vitest';
import { makeCoordinateImage } from './make-test-image.js';
import { smartResize, smartResizeImage } from './smart-resize.js';

describe('smartResize (Qwen2.5-VL)', () => {
  // [width, height, expected width, expected height], computed with transformers' Python smart_resize.
  const known: [number, number, number, number][] = [
    [1024, 768, 1036, 756],
    [640, 480, 644, 476],
    [1920, 1080, 1316, 728], // over max_pixels: scaled down with floor
    [4032, 3024, 1148, 840],
    [70, 42, 56, 56], // 70 / 28 = 2.5 rounds to 2 (half to even), 42 / 28 = 1.5 to 2
    [98, 98, 112, 112], // 3.5 rounds to 4
    [100, 10, 196, 28], // under min_pixels: scaled up with ceil
    [50, 50, 56, 56],
    [224, 224, 224, 224],
    [56, 56, 56, 56],
    [2000, 14, 672, 28],
    [14, 2000, 28, 672],
    [1000, 1000, 980, 980],
    [1036, 1092, 952, 1008],
    [3000, 70, 2996, 56],
    [300, 2, 700, 28],
  ];

  it.each(known)('%i × %i → %i × %i', (width, height, expectedWidth, expectedHeight) => {
    expect(smartResize({ width, height })).toEqual({ width: expectedWidth, height: expectedHeight });
  });

  it('takes factor and pixel bounds', () => {
    // Qwen2.5-VL with min_pixels 256·28², max_pixels 1280·28² (a common vLLM setting).
    expect(smartResize({ width: 640, height: 480 }, { minPixels: 256 * 28 * 28, maxPixels: 1280 * 28 * 28 })).toEqual({ width: 644, height: 476 });
    expect(smartResize({ width: 100, height: 100 }, { minPixels: 256 * 28 * 28 })).toEqual({ width: 448, height: 448 });
    expect(smartResize({ width: 1024, height: 768 }, { factor: 32 })).toEqual({ width: 1024, height: 768 });
  });

  it('refuses aspect ratios over 200 and empty sizes', () => {
    expect(() => smartResize({ width: 201, height: 1 })).toThrow(/aspect ratio of at most 200/);
    expect(() => smartResize({ width: 0, height: 10 })).toThrow(/positive width and height/);
  });

  it('resizes an image to that size', async () => {
    const resized = await smartResizeImage(makeCoordinateImage(100, 10));
    expect([resized.width, resized.height]).toEqual([196, 28]);
  });
});
