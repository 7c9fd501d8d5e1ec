import { describe, expect, it } from 'vitest';
import { fromDataUrl, toDataUrl } from './data-url.js';
import { encodeJpeg, encodePng } from './encode-image.js';
import { InvalidImageError } from './invalid-image-error.js';
import { makeCoordinateImage } from './make-test-image.js';

describe('data URLs', () => {
  it('round-trips PNG and JPEG bytes exactly', async () => {
    for (const image of [await encodePng(makeCoordinateImage(20, 10)), await encodeJpeg(makeCoordinateImage(20, 10), 80)]) {
      const url = toDataUrl(image);
      expect(url.startsWith(`data:${image.mediaType};base64,`)).toBe(true);
      const back = fromDataUrl(url);
      expect(back.mediaType).toBe(image.mediaType);
      expect(Buffer.from(back.data).equals(Buffer.from(image.data))).toBe(true);
    }
  });

  it('refuses what is not a base64 image data URL', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).toString('base64');
    const cases: [string, string][] = [
      ['http://example.com/a.png', 'bad-data-url'],
      ['data:image/png,plain', 'bad-data-url'],
      [`data:image/gif;base64,${png}`, 'unsupported-format'],
      ['data:image/png;base64,@@@@', 'bad-data-url'],
      [`data:image/jpeg;base64,${png}`, 'unsupported-format'],
      ['data:image/png;base64,', 'empty'],
    ];
    for (const [url, reason] of cases) {
      const error = catchError(() => fromDataUrl(url));
      expect(InvalidImageError.isInstance(error), url).toBe(true);
      expect((error as InvalidImageError).reason, url).toBe(reason);
    }
  });

  it('says what the payload really was when the label lies', () => {
    const url = `data:image/png;base64,${Buffer.from('not an image at all').toString('base64')}`;
    expect(() => fromDataUrl(url)).toThrow(/expected image\/png bytes, as the URL says, received text starting "not an image at all"/);
  });
});

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}
