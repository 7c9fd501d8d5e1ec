import type { EncodedImage, ImageSource, ReadOptions } from './encoded-image.js';
import { finishImage, finishRaw } from './finish-image.js';
import { openImage } from './open-image.js';

/**
 * Whether loadImage decodes the pixels to prove the file whole, besides the pixel limit every
 * reader has.
 */
export interface LoadImageOptions extends ReadOptions {
  /**
   * Decode the pixels once to prove the file is whole (a truncated file has a valid header).
   * Default true; false checks only the header, which is much cheaper for large photos.
   */
  verify?: boolean;
}

/**
 * Reads an image from a path, bytes, data URL, EncodedImage or RawImage into an EncodedImage with
 * its width and height. PNG, JPEG and WebP keep their bytes as they are; other formats and raw
 * pixels become PNG.
 */
export async function loadImage(source: ImageSource, options: LoadImageOptions = {}): Promise<EncodedImage> {
  const opened = await openImage(source, options);
  const { bytes, mediaType, width, height } = opened;
  if (bytes === undefined || mediaType === undefined) return finishImage(opened, opened.pipeline, { format: 'image/png' });
  if (options.verify ?? true) await finishRaw(opened, opened.pipeline);
  return { data: bytes, mediaType, width, height };
}
