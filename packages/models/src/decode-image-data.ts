import type { ImageData } from '@saccade/spec';
import { resizeRgb } from './image-patches';
import type { RgbImage } from './rgb-image';

/** Images at least this many times the model's size are shrunk by libvips, not averaged in JS. */
const LARGE_FACTOR = 8;

/**
 * Decodes an encoded image (PNG/JPEG/WebP) to RGB pixels of size × size. An integer-multiple
 * size (a 256 px grid render → 64 px) is box-averaged in JS so that cell colours stay exact.
 */
export async function decodeImageData(image: ImageData, size: number): Promise<RgbImage> {
  const { default: sharp } = await import('sharp');
  // Far larger than the model's view (a 2048-px search image): libvips decodes and shrinks in one
  // pass, ~5× faster than decoding every pixel into JS and averaging there.
  if (image.width !== undefined && image.height !== undefined && Math.min(image.width, image.height) >= LARGE_FACTOR * size) {
    const shrunk = await sharp(image.data).removeAlpha().toColourspace('srgb').resize(size, size, { fit: 'fill' }).raw().toBuffer({ resolveWithObject: true });
    if (shrunk.info.channels !== 3) throw new Error(`Expected 3 channels after removeAlpha; got ${shrunk.info.channels}.`);
    return { width: size, height: size, data: new Uint8Array(shrunk.data.buffer, shrunk.data.byteOffset, shrunk.data.byteLength) };
  }
  const decoded = await sharp(image.data).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  const { width, height } = decoded.info;
  const pixels = { width, height, data: new Uint8Array(decoded.data.buffer, decoded.data.byteOffset, decoded.data.byteLength) };
  if (decoded.info.channels !== 3) throw new Error(`Expected 3 channels after removeAlpha; got ${decoded.info.channels}.`);
  if ((width % size === 0 && height % size === 0) || (width === size && height === size)) return resizeRgb(pixels, size);
  const resized = await sharp(pixels.data, { raw: { width, height, channels: 3 } })
    .resize(size, size, { fit: 'fill' })
    .raw()
    .toBuffer();
  return { width: size, height: size, data: new Uint8Array(resized.buffer, resized.byteOffset, resized.byteLength) };
}
