import { createHash } from 'node:crypto';
import type { EncodedImage, ImageSource, ReadOptions } from './encoded-image.js';
import { decodeImage } from './decode-image.js';

/**
 * SHA-256 of the encoded bytes, lowercase hex: the name trajectories store images under
 * (`images/<hash>.png`), so identical files are stored once.
 */
export function contentHash(image: EncodedImage | Uint8Array): string {
  const bytes = image instanceof Uint8Array ? image : image.data;
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * SHA-256 of the decoded pixels (as RGBA, with the size), so the same picture hashes the same
 * whatever its encoding or compression level: PNG and re-encoded PNG, RGB and opaque RGBA agree.
 * Lossy JPEG/WebP re-encoding changes pixels and so the hash.
 */
export async function pixelHash(source: ImageSource, options: ReadOptions = {}): Promise<string> {
  const { data, width, height } = await decodeImage(source, { ...options, channels: 4 });
  return createHash('sha256').update(`rgba8 ${width}x${height}\n`).update(data).digest('hex');
}
