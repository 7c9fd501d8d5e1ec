import { describe, expect, it } from 'vitest';
import { clipBox } from './clip-box.js';
import { crop } from './crop.js';
import { decodeImage } from './decode-image.js';
import { encodeJpeg, encodePng } from './encode-image.js';
import { InvalidImageArgumentError } from './invalid-image-argument-error.js';
import { makeCoordinateImage, pixelAt } from './make-test-image.js';

const source = makeCoordinateImage(100, 80);

describe('crop', () => {
  it('takes exactly the pixels of the box, x2 and y2 exclusive', async () => {
    const cropped = await crop(await encodePng(source), { x1: 10, y1: 20, x2: 40, y2: 30 });
    expect(cropped).toMatchObject({ mediaType: 'image/png', width: 30, height: 10 });
    const raw = await decodeImage(cropped);
    expect(pixelAt(raw, 0, 0)).toEqual([10, 20, 7]);
    expect(pixelAt(raw, 29, 9)).toEqual([39, 29, 7]);
  });

  it('clips a box reaching outside the image', async () => {
    const raw = await decodeImage(await crop(source, { x1: -15, y1: 70, x2: 20, y2: 200 }));
    expect([raw.width, raw.height]).toEqual([20, 10]);
    expect(pixelAt(raw, 0, 0)).toEqual([0, 70, 7]);
    expect(pixelAt(raw, 19, 9)).toEqual([19, 79, 7]);
  });

  it('rounds fractional edges outwards', async () => {
    expect(clipBox({ x1: 10.6, y1: 1.2, x2: 20.1, y2: 5 }, 100, 80)).toEqual({ x1: 10, y1: 1, x2: 21, y2: 5 });
    const raw = await decodeImage(await crop(source, { x1: 10.6, y1: 1.2, x2: 20.1, y2: 5 }));
    expect([raw.width, raw.height]).toEqual([11, 4]);
  });

  it('refuses a box empty after clipping, outside with clip: false, or malformed', async () => {
    await expect(crop(source, { x1: 100, y1: 0, x2: 150, y2: 10 })).rejects.toThrow(
      /Invalid box: expected a box overlapping the 100 × 80 image, received \[100, 0, 150, 10\], empty after clipping/,
    );
    await expect(crop(source, { x1: -1, y1: 0, x2: 10, y2: 10 }, { clip: false })).rejects.toThrow(/inside the 100 × 80 image/);
    await expect(crop(source, { x1: 20, y1: 0, x2: 10, y2: 10 })).rejects.toThrow(/x1 < x2/);
    await expect(crop(source, { x1: Number.NaN, y1: 0, x2: 10, y2: 10 })).rejects.toSatisfy(InvalidImageArgumentError.isInstance);
  });

  it('resizes in the same pass and keeps a JPEG a JPEG', async () => {
    const zoomed = await crop(await encodeJpeg(source), { x1: 0, y1: 0, x2: 50, y2: 40 }, { resize: { width: 448, height: 448 } });
    expect(zoomed).toMatchObject({ mediaType: 'image/jpeg', width: 448, height: 448 });
    const asPng = await crop(source, { x1: 0, y1: 0, x2: 10, y2: 10 }, { format: 'image/webp' });
    expect(asPng.mediaType).toBe('image/webp');
  });
});
