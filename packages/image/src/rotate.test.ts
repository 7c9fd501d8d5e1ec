import { describe, expect, it } from 'vitest';
import { decodeImage } from './decode-image.js';
import { makeCoordinateImage, makeSolidImage, pixelAt } from './make-test-image.js';
import { rotate } from './rotate.js';

const source = makeCoordinateImage(100, 80);

describe('rotate', () => {
  it('turns 90° counter-clockwise (as PIL), exactly', async () => {
    const raw = await decodeImage(await rotate(source, 90));
    expect([raw.width, raw.height]).toEqual([80, 100]);
    // The top-right corner comes to the top-left; (x, y) goes to (y, width - 1 - x).
    expect(pixelAt(raw, 0, 0)).toEqual([99, 0, 7]);
    expect(pixelAt(raw, 20, 30)).toEqual([69, 20, 7]);
  });

  it('turns -90 clockwise and 180 upside down', async () => {
    const clockwise = await decodeImage(await rotate(source, -90));
    expect(pixelAt(clockwise, 0, 0)).toEqual([0, 79, 7]);
    const flipped = await decodeImage(await rotate(source, 180));
    expect([flipped.width, flipped.height]).toEqual([100, 80]);
    expect(pixelAt(flipped, 0, 0)).toEqual([99, 79, 7]);
  });

  it('expands the canvas for other angles and fills corners with the background', async () => {
    const turned = await rotate(makeSolidImage(100, 100, [0, 0, 255]), 45, { background: '#00ff00' });
    expect([turned.width, turned.height]).toEqual([141, 141]);
    const raw = await decodeImage(turned);
    expect(pixelAt(raw, 1, 1)).toEqual([0, 255, 0]);
    expect(pixelAt(raw, 71, 71)).toEqual([0, 0, 255]);
    const black = await decodeImage(await rotate(makeSolidImage(100, 100, [0, 0, 255]), 30));
    expect(pixelAt(black, 0, 0)).toEqual([0, 0, 0]);
  });

  it('0 and 360 change nothing', async () => {
    for (const angle of [0, 360, -360]) {
      const raw = await decodeImage(await rotate(source, angle));
      expect(pixelAt(raw, 12, 34)).toEqual([12, 34, 7]);
    }
  });

  it('refuses a non-finite angle', async () => {
    await expect(rotate(source, Number.NaN)).rejects.toThrow(/Invalid angle/);
  });
});
