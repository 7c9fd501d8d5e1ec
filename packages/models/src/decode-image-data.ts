import type { ImageData } from '@saccade/spec';
import { resizeRgb } from './image-patches';
import type { RgbImage } from './rgb-image';

/** Images at least this many times the model's size are shrunk by libvips, not averaged in JS. */
const LARGE_FACTOR = 8;

/**
 * Decodes an encoded image (PNG/JPEG/WebP) to RGB pixels of size × size with @saccade/image. An
 * integer-multiple size (a 256 px grid render → 64 px) is box-averaged (`averagePixels`) so that
 * cell colours stay exact; other sizes are stretched by libvips (lanczos3).
 */
export async function decodeImageData(image: ImageData, size: number): Promise<RgbImage> {
  // Loaded on first use: sharp (libvips) stays out of processes that never decode, e.g. worker threads.
  const { decodeImage } = await import('@saccade/image');
  const square = { width: size, height: size, fit: 'fill' } as const;
  // Far larger than the model's view (a 2048-px search image): libvips decodes and shrinks in one
  // pass, ~5× faster than decoding every pixel into JS and averaging there.
  if (image.width !== undefined && image.height !== undefined && Math.min(image.width, image.height) >= LARGE_FACTOR * size) {
    return rgb(await decodeImage(image.data, { channels: 3, resize: square }));
  }
  const decoded = rgb(await decodeImage(image.data, { channels: 3 }));
  const { width, height } = decoded;
  if ((width % size === 0 && height % size === 0) || (width === size && height === size)) return resizeRgb(decoded, size);
  return rgb(await decodeImage({ ...decoded, channels: 3 }, { channels: 3, resize: square }));
}

/** The decoder's pixels as the model holds them (a plain Uint8Array view, not a Buffer). */
function rgb(image: { width: number; height: number; data: Uint8Array }): RgbImage {
  return { width: image.width, height: image.height, data: new Uint8Array(image.data.buffer, image.data.byteOffset, image.data.byteLength) };
}
