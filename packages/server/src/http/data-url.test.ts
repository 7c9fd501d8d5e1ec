import { encodePng } from '@saccade/image';
import { describe, expect, test } from 'vitest';
import { fromDataUrl, toDataUrl } from './data-url';

describe('fromDataUrl (requests)', () => {
  test('a data URL and bare base64 give the same bytes back; the media type comes from the bytes', async () => {
    const image = await encodePng({ data: new Uint8Array(4 * 3 * 3).fill(200), width: 4, height: 3, channels: 3 });
    const url = toDataUrl(image);
    expect(url.startsWith('data:image/png;base64,iVBORw0KGgo')).toBe(true);
    const parsed = fromDataUrl(url, 'images[0]');
    expect(parsed.mediaType).toBe('image/png');
    expect([...parsed.data]).toEqual([...image.data]);
    expect(fromDataUrl(url.slice('data:image/png;base64,'.length), 'images[0]').mediaType).toBe('image/png');
  });

  test('bad images are 400s that name the field', async () => {
    const image = await encodePng({ data: new Uint8Array(4 * 3 * 3).fill(200), width: 4, height: 3, channels: 3 });
    const png = Buffer.from(image.data).toString('base64');
    const reject = (value: unknown) => {
      try {
        fromDataUrl(value, 'images[1]');
      } catch (error) {
        return { statusCode: (error as { statusCode?: number }).statusCode, message: (error as Error).message };
      }
      return undefined;
    };
    expect(reject(3)).toEqual({ statusCode: 400, message: 'images[1]: expected an image as a data URL string, received number.' });
    expect(reject('https://example.com/a.png')?.message).toBe('images[1]: remote image URLs are not fetched (no network at run time); expected a data URL such as "data:image/png;base64,…".');
    expect(reject(`data:image/jpeg;base64,${png}`)).toMatchObject({ statusCode: 400, message: expect.stringMatching(/^images\[1\]: .*image\/jpeg bytes, as the URL says.*image\/png/) });
    expect(reject('aGVsbG8=')).toEqual({ statusCode: 400, message: 'images[1]: expected a PNG, JPEG or WebP image, received 5 bytes that are none of these.' });
  });
});
