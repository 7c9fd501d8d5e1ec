import { describe, expect, it } from 'vitest';
import { decodeImage } from './decode-image.js';
import { drawBoxes } from './draw-boxes.js';
import { drawPoints } from './draw-points.js';
import { encodePng } from './encode-image.js';
import { makeCoordinateImage, makeSolidImage, pixelAt } from './make-test-image.js';

describe('drawPoints', () => {
  it('draws the red dot of radius 7 centred on the pixel', async () => {
    const marked = await drawPoints(await encodePng(makeCoordinateImage(100, 80)), [{ x: 50, y: 40 }]);
    expect(marked).toMatchObject({ mediaType: 'image/png', width: 100, height: 80 });
    const raw = await decodeImage(marked);
    expect(raw.channels).toBe(3);
    for (const [x, y] of [[50, 40], [44, 40], [56, 40], [50, 34], [50, 46], [54, 44]]) {
      expect(pixelAt(raw, x as number, y as number), `${x},${y}`).toEqual([255, 0, 0]);
    }
    // Outside the radius the picture is untouched.
    expect(pixelAt(raw, 42, 40)).toEqual([42, 40, 7]);
    expect(pixelAt(raw, 50, 31)).toEqual([50, 31, 7]);
    expect(pixelAt(raw, 10, 10)).toEqual([10, 10, 7]);
  });

  it('takes radius and colour, and draws the part of a dot at the edge', async () => {
    const raw = await decodeImage(await drawPoints(makeSolidImage(20, 20, [0, 0, 0]), [{ x: 0, y: 19, radius: 3, color: '#00ff00' }]));
    expect(pixelAt(raw, 0, 19)).toEqual([0, 255, 0]);
    expect(pixelAt(raw, 1, 17)).toEqual([0, 255, 0]);
    expect(pixelAt(raw, 5, 19)).toEqual([0, 0, 0]);
  });

  it('refuses colours that could break the markup', async () => {
    await expect(drawPoints(makeSolidImage(4, 4, [0, 0, 0]), [{ x: 1, y: 1, color: 'red"/><image href="http://x' }])).rejects.toThrow(
      /Invalid points\[0\]\.color: expected a CSS colour/,
    );
    await expect(drawPoints(makeSolidImage(4, 4, [0, 0, 0]), [{ x: Number.NaN, y: 1 }])).rejects.toThrow(/points\[0\]\.x/);
  });
});

describe('drawBoxes', () => {
  it('draws a 2 px outline inside the box and leaves the inside alone', async () => {
    const raw = await decodeImage(await drawBoxes(makeCoordinateImage(100, 80), [{ x1: 10, y1: 30, x2: 60, y2: 70 }]));
    for (const [x, y] of [[10, 50], [11, 50], [59, 50], [58, 50], [30, 30], [30, 31], [30, 69]]) {
      expect(pixelAt(raw, x as number, y as number), `${x},${y}`).toEqual([255, 0, 0]);
    }
    for (const [x, y] of [[9, 50], [12, 50], [57, 50], [60, 50], [30, 29], [30, 32], [30, 70]]) {
      expect(pixelAt(raw, x as number, y as number), `${x},${y}`).toEqual([x, y, 7]);
    }
  });

  it('draws a label tab above the box in its colour with white text', async () => {
    const raw = await decodeImage(
      await drawBoxes(makeSolidImage(200, 100, [0, 0, 0]), [{ x1: 20, y1: 50, x2: 120, y2: 90, label: 'cat & <dog>', color: '#0000ff' }]),
    );
    const tab: number[][] = [];
    for (let y = 31; y < 50; y += 1) for (let x = 20; x < 110; x += 1) tab.push(pixelAt(raw, x, y));
    expect(tab.filter(([r, g, b]) => r === 0 && g === 0 && b === 255).length).toBeGreaterThan(500);
    expect(tab.filter(([r, g, b]) => r === 255 && g === 255 && b === 255).length).toBeGreaterThan(20);
    expect(pixelAt(raw, 150, 40)).toEqual([0, 0, 0]);
  });
});
