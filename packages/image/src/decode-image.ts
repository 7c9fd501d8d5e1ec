import type { ImageSource, RawImage, ReadOptions } from './encoded-image.js';
import { finishRaw } from './finish-image.js';
import { openImage } from './open-image.js';
import { applyResize, type ResizeSpec } from './resize.js';

/** How many channels decodeImage returns and the size it resizes to, besides the pixel limit every reader has. */
export interface DecodeImageOptions extends ReadOptions {
  /** Force RGB (3, alpha dropped) or RGBA (4, opaque alpha added). Default: 4 if the image has alpha, else 3. */
  channels?: 3 | 4;
  /** Resize in the same libvips pass as the decode (as `resize` would, without encoding between). */
  resize?: ResizeSpec;
}

/**
 * Decodes to interleaved 8-bit RGB or RGBA pixels, optionally resized on the way (`resize`);
 * greyscale becomes RGB.
 */
export async function decodeImage(source: ImageSource, options: DecodeImageOptions = {}): Promise<RawImage> {
  const opened = await openImage(source, options);
  const channels = options.channels ?? (opened.hasAlpha ? 4 : 3);
  const pipeline = opened.pipeline.toColourspace('srgb');
  if (channels === 4) pipeline.ensureAlpha();
  else pipeline.removeAlpha();
  if (options.resize !== undefined) applyResize(pipeline, options.resize);
  const raw = await finishRaw(opened, pipeline);
  return { data: raw.data, width: raw.width, height: raw.height, channels };
}
