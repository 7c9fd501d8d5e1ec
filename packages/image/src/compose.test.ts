import { describe, expect, it } from 'vitest';
import { compose } from './compose.js';
import { decodeImage } from './decode-image.js';
import { encodePng } from './encode-image.js';
import { makeCoordinateImage, makeSolidImage, pixelAt } from './make-test-image.js';

describe('compose', () => {
  it('pastes layers at their offsets on the background, later layers on top', async () => {
    const composed = await compose(
      [
        { image: await encodePng(makeCoordinateImage(50, 40)), left: 10, top: 20 },
        { image: makeSolidImage(10, 10, [0, 0, 255]), left: 40, top: 50 },
      ],
      { width: 120, height: 100, background: '#00ff00' },
    );
    expect(composed).toMatchObject({ mediaType: 'image/png', width: 120, height: 100 });
    const raw = await decodeImage(composed);
    expect(raw.channels).toBe(3);
    expect(pixelAt(raw, 10, 20)).toEqual([0, 0, 7]);
    expect(pixelAt(raw, 39, 49)).toEqual([29, 29, 7]);
    expect(pixelAt(raw, 40, 50)).toEqual([0, 0, 255]);
    expect(pixelAt(raw, 49, 59)).toEqual([0, 0, 255]);
    expect(pixelAt(raw, 59, 59)).toEqual([49, 39, 7]);
    for (const [x, y] of [[9, 20], [60, 20], [10, 19], [45, 60]]) {
      expect(pixelAt(raw, x as number, y as number), `${x},${y}`).toEqual([0, 255, 0]);
    }
  });

  it('cuts layers hanging over the edges', async () => {
    const raw = await decodeImage(await compose([{ image: makeCoordinateImage(50, 40), left: -10, top: 30 }], { width: 60, height: 50 }));
    expect(pixelAt(raw, 0, 30)).toEqual([10, 0, 7]);
    expect(pixelAt(raw, 39, 49)).toEqual([49, 19, 7]);
    expect(pixelAt(raw, 45, 40)).toEqual([255, 255, 255]);
  });

  it('keeps alpha on a transparent canvas', async () => {
    const raw = await decodeImage(await compose([{ image: makeSolidImage(2, 2, [9, 9, 9]), left: 0, top: 0 }], { width: 4, height: 4, background: 'transparent' }));
    expect(raw.channels).toBe(4);
    expect(pixelAt(raw, 0, 0)).toEqual([9, 9, 9, 255]);
    expect(pixelAt(raw, 3, 3)[3]).toBe(0);
  });

  it('explains a bad layer and a bad size', async () => {
    const truncated = (await encodePng(makeCoordinateImage(50, 40))).data.subarray(0, 200);
    await expect(compose([{ image: truncated, left: 0, top: 0 }], { width: 10, height: 10 })).rejects.toThrow(/complete image\/png file/);
    await expect(compose([], { width: 0, height: 10 })).rejects.toThrow(/Invalid width/);
  });
});
