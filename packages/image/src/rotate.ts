import type { EncodedImage, ImageSource, OutputOptions } from './encoded-image.js';
import { finishImage } from './finish-image.js';
import { InvalidImageArgumentError } from './invalid-image-argument-error.js';
import { openImage } from './open-image.js';

/** The colour rotate fills the uncovered corners with, and the output encoding. */
export interface RotateOptions extends OutputOptions {
  /** Fills the corners the rotation uncovers. Default: transparent if the image has alpha, else black (PIL's default). */
  background?: string;
}

/**
 * Rotates by `angle` degrees counter-clockwise, as PIL's `Image.rotate(angle, expand=True)` does in
 * DeepEyes' rotate tool, expanding the canvas so no pixel is lost. Multiples of 90 are exact.
 */
export async function rotate(source: ImageSource, angle: number, options: RotateOptions = {}): Promise<EncodedImage> {
  if (!Number.isFinite(angle)) {
    throw new InvalidImageArgumentError({ argument: 'angle', expected: 'a finite number of degrees', received: String(angle), value: angle });
  }
  const opened = await openImage(source, options);
  const background = options.background ?? (opened.hasAlpha ? { r: 0, g: 0, b: 0, alpha: 0 } : '#000000');
  // sharp turns clockwise; normalise so -0 and 360 are no-ops rather than a resample.
  const clockwise = ((-angle % 360) + 360) % 360;
  const pipeline = clockwise === 0 ? opened.pipeline : opened.pipeline.rotate(clockwise, { background });
  return finishImage(opened, pipeline, options);
}
