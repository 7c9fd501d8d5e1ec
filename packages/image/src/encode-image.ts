import type { EncodedImage, ImageMediaType, ImageSource, OutputOptions, ReadOptions } from './encoded-image.js';
import { finishImage } from './finish-image.js';
import { openImage } from './open-image.js';

/** Re-encodes any source in the given format (JPEG drops alpha onto black, as every JPEG encoder does). */
export async function encodeImage(
  source: ImageSource,
  format: ImageMediaType,
  options: Omit<OutputOptions, 'format'> = {},
): Promise<EncodedImage> {
  const opened = await openImage(source, options);
  return finishImage(opened, opened.pipeline, { ...options, format });
}

/** Re-encodes any source as lossless PNG. */
export function encodePng(source: ImageSource, options: ReadOptions = {}): Promise<EncodedImage> {
  return encodeImage(source, 'image/png', options);
}

/** JPEG at `quality` (1–100, default 90). */
export function encodeJpeg(source: ImageSource, quality?: number, options: ReadOptions = {}): Promise<EncodedImage> {
  return encodeImage(source, 'image/jpeg', { ...options, quality });
}

/** Lossy WebP at `quality` (1–100, default 90). */
export function encodeWebp(source: ImageSource, quality?: number, options: ReadOptions = {}): Promise<EncodedImage> {
  return encodeImage(source, 'image/webp', { ...options, quality });
}
