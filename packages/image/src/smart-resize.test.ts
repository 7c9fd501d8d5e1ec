import { describe, expect, it } from 'vitest';
import { makeCoordinateImage } from './make-test-image.js';
import { QWEN25_VL_MAX_PIXELS, QWEN25_VL_MIN_PIXELS, smartResize, smartResizeImage } from './smart-resize.js';

describe('smartResize (Qwen2.5-VL)', () => {
  // [width, height, expected width, expected height, image tokens], computed with transformers'
  // Python smart_resize and Qwen2.5-VL's published preprocessor_config.json (min_pixels 3,136,
  // max_pixels 12,845,056, factor 28): what vLLM sees with default settings. Tokens: one
  // <|image_pad|> per 28 × 28 cell.
  const known: [number, number, number, number, number][] = [
    [2048, 2048, 2044, 2044, 5329],
    [1920, 1080, 1932, 1092, 2691],
    [3840, 2160, 3836, 2156, 10549],
    [1024, 768, 1036, 756, 999],
    [640, 480, 644, 476, 391],
    [4032, 3024, 4032, 3024, 15552],
    [8000, 6000, 4116, 3080, 16170], // over max_pixels: scaled down with floor
    [12000, 800, 12012, 812, 12441],
    [1000, 1000, 1008, 1008, 1296],
    [1036, 1092, 1036, 1092, 1443],
    [70, 42, 56, 56, 4], // 70 / 28 = 2.5 rounds to 2 (half to even), 42 / 28 = 1.5 to 2
    [98, 98, 112, 112, 16], // 3.5 rounds to 4
    [100, 10, 196, 28, 7], // under min_pixels: scaled up with ceil
    [50, 50, 56, 56, 4],
    [224, 224, 224, 224, 64],
    [56, 56, 56, 56, 4],
    [2000, 14, 672, 28, 24],
    [14, 2000, 28, 672, 24],
    [3000, 70, 2996, 56, 214],
    [300, 2, 700, 28, 25],
  ];

  it.each(known)('%i × %i → %i × %i (%i image tokens)', (width, height, expectedWidth, expectedHeight, tokens) => {
    const size = smartResize({ width, height });
    expect(size).toEqual({ width: expectedWidth, height: expectedHeight });
    expect((size.width / 28) * (size.height / 28)).toBe(tokens);
  });

  it('defaults to the published min_pixels and max_pixels, which stay settable', () => {
    expect([QWEN25_VL_MIN_PIXELS, QWEN25_VL_MAX_PIXELS]).toEqual([3136, 12845056]);
    // The smart_resize function's own default, 14 · 14 · 4 · 1280 = 1,003,520 (a common vLLM setting).
    const functionDefault = { maxPixels: 1_003_520 };
    expect(smartResize({ width: 2048, height: 2048 }, functionDefault)).toEqual({ width: 980, height: 980 }); // 1,225 tokens
    expect(smartResize({ width: 1920, height: 1080 }, functionDefault)).toEqual({ width: 1316, height: 728 }); // 1,222 tokens
    expect(smartResize({ width: 4032, height: 3024 }, functionDefault)).toEqual({ width: 1148, height: 840 });
    expect(smartResize({ width: 1000, height: 1000 }, functionDefault)).toEqual({ width: 980, height: 980 });
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
