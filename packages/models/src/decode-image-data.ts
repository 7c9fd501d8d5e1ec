import type { ImageData } from '@saccade/spec';
import { resizeRgb } from './image-patches';
import type { RgbImage } from './rgb-image';

/**
 * Decodes an encoded image (PNG/JPEG/WebP) to RGB pixels of size × size. An integer-multiple
 * size (a 256 px grid render → 64 px) is box-averaged in JS so that cell colours stay exact.
 */
export async function decodeImageData(image: ImageData, size: number): Promise<RgbImage> {
  const { default: sharp } = await import('sharp');
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
