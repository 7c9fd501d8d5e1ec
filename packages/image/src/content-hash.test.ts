import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { contentHash, pixelHash } from './content-hash.js';
import { encodeJpeg, encodePng } from './encode-image.js';
import { makeCoordinateImage } from './make-test-image.js';

describe('contentHash', () => {
  it('is the SHA-256 of the encoded bytes, stable across calls and encodes', async () => {
    expect(contentHash(new TextEncoder().encode('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const first = await encodePng(makeCoordinateImage(30, 20));
    const second = await encodePng(makeCoordinateImage(30, 20));
    expect(contentHash(first)).toBe(contentHash(second));
    expect(contentHash(first)).toBe(createHash('sha256').update(first.data).digest('hex'));
    expect(contentHash(first)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('pixelHash', () => {
  it('agrees across PNG compression levels, RGB vs opaque RGBA, and raw pixels', async () => {
    const raw = makeCoordinateImage(30, 20);
    const png = await encodePng(raw);
    const recompressed = await sharp(Buffer.from(png.data)).png({ compressionLevel: 9, adaptiveFiltering: true }).toBuffer();
    const withAlpha = await sharp(Buffer.from(png.data)).ensureAlpha().png().toBuffer();
    expect(contentHash(recompressed)).not.toBe(contentHash(png));
    const hashes = await Promise.all([pixelHash(png), pixelHash(recompressed), pixelHash(withAlpha), pixelHash(raw)]);
    expect(new Set(hashes).size).toBe(1);
  });

  it('changes with one pixel, with the size and with lossy re-encoding', async () => {
    const raw = makeCoordinateImage(30, 20);
    const changed = { ...raw, data: Uint8Array.from(raw.data) };
    changed.data[0] = 99;
    const reshaped = { ...raw, width: 20, height: 30 };
    const hashes = await Promise.all([pixelHash(raw), pixelHash(changed), pixelHash(reshaped), pixelHash(await encodeJpeg(raw, 50))]);
    expect(new Set(hashes).size).toBe(4);
  });
});
