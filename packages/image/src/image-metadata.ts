import type { EncodedImage, ImageMediaType, ImageSource, ReadOptions } from './encoded-image.js';
import { openImage } from './open-image.js';

/**
 * What imageMetadata reads from an image's header: size, channels, alpha, format and encoded
 * length.
 */
export interface ImageMetadata {
  width: number;
  height: number;
  channels: number;
  hasAlpha: boolean;
  /** PNG, JPEG or WebP; undefined for raw pixels and formats converted on load (GIF, TIFF, AVIF). */
  mediaType: ImageMediaType | undefined;
  /** sharp's format name: 'png', 'jpeg', 'webp', 'gif', 'tiff', 'heif', 'raw'. */
  format: string;
  /** Size of the encoded input; undefined for raw pixels. */
  byteLength: number | undefined;
}

/** Header facts; reads the header only, never the pixels. */
export async function imageMetadata(source: ImageSource, options: ReadOptions = {}): Promise<ImageMetadata> {
  const { width, height, channels, hasAlpha, mediaType, format, bytes } = await openImage(source, options);
  return { width, height, channels, hasAlpha, mediaType, format, byteLength: bytes?.length };
}

/**
 * The width and height in pixels, read from the header only (cheaper than imageMetadata when the
 * size is all a caller needs).
 */
export async function imageSize(
  source: ImageSource,
  options: ReadOptions = {},
): Promise<{ width: number; height: number }> {
  const { width, height } = await openImage(source, options);
  return { width, height };
}

/**
 * An encoded image's size: the width and height it records (spec's ImageData carries them when its
 * producer knew them), else read from its header. A recorded size is trusted as it is.
 */
export async function recordedImageSize(image: EncodedImage, options: ReadOptions = {}): Promise<{ width: number; height: number }> {
  return image.width !== undefined && image.height !== undefined ? { width: image.width, height: image.height } : await imageSize(image, options);
}
