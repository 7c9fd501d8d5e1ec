import { describe, expect, it } from 'vitest';
import { decodeImage } from './decode-image.js';
import { makeCoordinateImage, makeSolidImage, pixelAt } from './make-test-image.js';
import { resize } from './resize.js';

const source = makeCoordinateImage(100, 50);

describe('resize', () => {
  it('gives the size each fit mode promises', async () => {
    const sizes = async (options: Parameters<typeof resize>[1]) => {
      const { width, height } = await resize(source, options);
      return [width, height];
    };
    expect(await sizes({ width: 448, height: 448 })).toEqual([448, 448]); // fill (default)
    expect(await sizes({ width: 40, height: 40, fit: 'inside' })).toEqual([40, 20]);
    expect(await sizes({ width: 40, height: 40, fit: 'outside' })).toEqual([80, 40]);
    expect(await sizes({ width: 40, height: 40, fit: 'cover' })).toEqual([40, 40]);
    expect(await sizes({ width: 40, height: 40, fit: 'contain' })).toEqual([40, 40]);
    expect(await sizes({ width: 50 })).toEqual([50, 25]);
    expect(await sizes({ height: 10 })).toEqual([20, 10]);
  });

  it('letterboxes contain with the background colour', async () => {
    const raw = await decodeImage(await resize(makeSolidImage(100, 50, [0, 0, 255]), { width: 40, height: 40, fit: 'contain', background: '#00ff00' }));
    expect(pixelAt(raw, 20, 2)).toEqual([0, 255, 0]);
    expect(pixelAt(raw, 20, 20)).toEqual([0, 0, 255]);
  });

  it('nearest-neighbour doubling repeats pixels exactly', async () => {
    const raw = await decodeImage(await resize(source, { width: 200, height: 100, kernel: 'nearest' }));
    expect(pixelAt(raw, 21, 41)).toEqual([10, 20, 7]);
  });

  it('refuses sizes that are not positive integers', async () => {
    await expect(resize(source, { width: 0 })).rejects.toThrow(/Invalid width: expected an integer ≥ 1, received 0/);
    await expect(resize(source, { width: 10.5, height: 3 })).rejects.toThrow(/Invalid width/);
    await expect(resize(source, {})).rejects.toThrow(/Invalid size/);
  });
});
