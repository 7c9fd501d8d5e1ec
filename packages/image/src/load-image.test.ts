import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { toDataUrl } from './data-url.js';
import { decodeImage } from './decode-image.js';
import { encodeJpeg, encodePng, encodeWebp } from './encode-image.js';
import type { EncodedImage } from './encoded-image.js';
import { imageMetadata, imageSize, recordedImageSize } from './image-metadata.js';
import { InvalidImageError, type InvalidImageReason } from './invalid-image-error.js';
import { loadImage } from './load-image.js';
import { makeCoordinateImage, pixelAt } from './make-test-image.js';

let png: EncodedImage;
let jpeg: EncodedImage;
let directory: string;

beforeAll(async () => {
  png = await encodePng(makeCoordinateImage(64, 48));
  jpeg = await encodeJpeg(makeCoordinateImage(64, 48), 85);
  directory = await mkdtemp(join(tmpdir(), 'saccade-image-'));
});

describe('loadImage', () => {
  it('reads a path, a Buffer, a Uint8Array, a data URL, an EncodedImage and raw pixels', async () => {
    const path = join(directory, 'a.png');
    await writeFile(path, png.data);
    const sources = [path, Buffer.from(png.data), new Uint8Array(png.data), toDataUrl(png), png];
    for (const source of sources) {
      const loaded = await loadImage(source);
      expect(loaded).toMatchObject({ mediaType: 'image/png', width: 64, height: 48 });
      expect(Buffer.from(loaded.data).equals(Buffer.from(png.data))).toBe(true);
    }
    const fromRaw = await loadImage(makeCoordinateImage(64, 48));
    expect(fromRaw).toMatchObject({ mediaType: 'image/png', width: 64, height: 48 });
    expect(pixelAt(await decodeImage(fromRaw), 10, 20)).toEqual([10, 20, 7]);
  });

  it('keeps JPEG and WebP as they are and converts GIF to PNG', async () => {
    expect((await loadImage(jpeg)).mediaType).toBe('image/jpeg');
    expect((await loadImage((await encodeWebp(png)).data)).mediaType).toBe('image/webp');
    const gif = await sharp(Buffer.from(png.data)).gif().toBuffer();
    expect(await loadImage(gif)).toMatchObject({ mediaType: 'image/png', width: 64, height: 48 });
  });

  it('reports size and metadata from the header', async () => {
    expect(await imageSize(png)).toEqual({ width: 64, height: 48 });
    expect(await imageMetadata(jpeg)).toMatchObject({ width: 64, height: 48, channels: 3, hasAlpha: false, mediaType: 'image/jpeg', format: 'jpeg' });
  });

  it('takes an encoded image\'s recorded size, else its header\'s', async () => {
    // A recorded size is the producer's word and is not checked against the bytes.
    expect(await recordedImageSize({ data: png.data, mediaType: 'image/png', width: 32, height: 24 })).toEqual({ width: 32, height: 24 });
    expect(await recordedImageSize({ data: png.data, mediaType: 'image/png' })).toEqual({ width: 64, height: 48 });
    expect(await recordedImageSize({ data: png.data, mediaType: 'image/png', width: 32 })).toEqual({ width: 64, height: 48 });
  });
});

describe('bad images', () => {
  const expectInvalid = async (promise: Promise<unknown>, reason: InvalidImageReason, message: RegExp) => {
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(InvalidImageError.isInstance(error)).toBe(true);
    const invalid = error as InvalidImageError;
    expect(invalid.name).toBe('Saccade_InvalidImageError');
    expect(invalid).toBeInstanceOf(InvalidImageError);
    expect(invalid.reason).toBe(reason);
    expect(invalid.message).toMatch(message);
    return invalid;
  };

  it('a truncated PNG fails on load, with the header still readable', async () => {
    const truncated = png.data.subarray(0, png.data.length - 40);
    expect(await imageSize(truncated)).toEqual({ width: 64, height: 48 });
    await expectInvalid(loadImage(truncated), 'truncated', /expected a complete image\/png file, received \d+ bytes that end before the image does/);
  });

  it('a truncated JPEG fails', async () => {
    await expectInvalid(loadImage(jpeg.data.subarray(0, jpeg.data.length - 100)), 'truncated', /complete image\/jpeg/);
  });

  it('verify: false checks the header only', async () => {
    const loaded = await loadImage(png.data.subarray(0, png.data.length - 40), { verify: false });
    expect(loaded.width).toBe(64);
  });

  it('text, a PDF, SVG and empty bytes say what they were', async () => {
    await expectInvalid(loadImage(Buffer.from('hello, world')), 'unsupported-format', /received text starting "hello, world"/);
    await expectInvalid(loadImage(Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n')), 'unsupported-format', /received a PDF document/);
    await expectInvalid(
      loadImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>')),
      'unsupported-format',
      /SVG text.*use renderSvg/,
    );
    await expectInvalid(loadImage(new Uint8Array(0)), 'empty', /received 0 bytes/);
  });

  it('a PNG header of zero width is refused as zero-size', async () => {
    await expectInvalid(loadImage(withPngSize(png.data, 0, 48)), 'zero-size', /received a PNG header of 0 × 48/);
  });

  it('a header claiming 50,000 × 50,000 fails fast, without decoding', async () => {
    const start = performance.now();
    const before = process.memoryUsage().rss;
    const error = await expectInvalid(loadImage(withPngSize(png.data, 50_000, 50_000)), 'too-large', /at most 67108864 pixels, received a header claiming 50000 × 50000/);
    expect(performance.now() - start).toBeLessThan(500);
    // Decoding would need 7.5 GB; the process must not have grown by anything near that.
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
    expect(error).toMatchObject({ width: 50_000, height: 50_000, maxPixels: 64 * 1024 * 1024 });
  });

  it('maxPixels is configurable', async () => {
    await expectInvalid(loadImage(png, { maxPixels: 1000 }), 'too-large', /at most 1000 pixels, received a header claiming 64 × 48/);
    expect((await loadImage(png, { maxPixels: 3072 })).width).toBe(64);
  });

  it('a missing file and bad raw pixels', async () => {
    const missing = await expectInvalid(loadImage(join(directory, 'nope.png')), 'not-found', /received ENOENT/);
    expect(missing.source).toContain('nope.png');
    await expectInvalid(loadImage({ data: new Uint8Array(10), width: 4, height: 4, channels: 3 }), 'bad-raw-data', /expected 48 bytes/);
    await expectInvalid(loadImage({ data: new Uint8Array(0), width: 0, height: 4, channels: 3 }), 'zero-size', /0 × 4/);
  });

  it('isInstance recognises the marker from another copy of the class', () => {
    const foreign = Object.assign(new Error('x'), { [Symbol.for('saccade.error.invalid-image')]: true });
    expect(InvalidImageError.isInstance(foreign)).toBe(true);
    expect(InvalidImageError.isInstance(new Error('x'))).toBe(false);
    expect(InvalidImageError.isInstance(undefined)).toBe(false);
  });
});

/** A copy of a PNG whose IHDR claims another size, with a valid CRC so only the size is wrong. */
function withPngSize(bytes: Uint8Array, width: number, height: number): Buffer {
  const copy = Buffer.from(bytes);
  copy.writeUInt32BE(width, 16);
  copy.writeUInt32BE(height, 20);
  copy.writeUInt32BE(crc32(copy.subarray(12, 29)) >>> 0, 29);
  return copy;
}
