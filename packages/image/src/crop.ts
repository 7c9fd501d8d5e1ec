import type { EncodedImage, ImageSource, OutputOptions } from './encoded-image.js';
import { clipBox, type Box } from './clip-box.js';
import { finishImage } from './finish-image.js';
import { openImage } from './open-image.js';
import { applyResize, type ResizeSpec } from './resize.js';

/**
 * How crop treats a box that reaches past the image, an optional resize in the same pass, and the
 * output encoding.
 */
export interface CropOptions extends OutputOptions {
  /** Cut the box to the image (default true); false makes a box reaching outside an error. */
  clip?: boolean;
  /** Resize the crop in the same pass (one decode, one encode): the zoom tools' crop-then-upscale. */
  resize?: ResizeSpec;
}

/**
 * The region `box` covers (pixel edges, x2/y2 exclusive, fractional edges rounded outwards), from
 * the image it is given. Throws InvalidImageArgumentError when the box is empty after clipping.
 */
export async function crop(source: ImageSource, box: Box, options: CropOptions = {}): Promise<EncodedImage> {
  const opened = await openImage(source, options);
  const region = clipBox(box, opened.width, opened.height, options.clip ?? true);
  const pipeline = opened.pipeline.extract({
    left: region.x1,
    top: region.y1,
    width: region.x2 - region.x1,
    height: region.y2 - region.y1,
  });
  if (options.resize !== undefined) applyResize(pipeline, options.resize);
  return finishImage(opened, pipeline, options);
}
