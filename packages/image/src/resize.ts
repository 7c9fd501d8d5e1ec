import type { Sharp } from 'sharp';
import type { EncodedImage, ImageSource, OutputOptions } from './encoded-image.js';
import { finishImage } from './finish-image.js';
import { InvalidImageArgumentError } from './invalid-image-argument-error.js';
import { openImage } from './open-image.js';

/**
 * How the image fits the target box (sharp's names). 'fill' stretches to exactly width × height,
 * as PIL's resize and the Hugging Face processors do; 'contain' letterboxes; 'cover' crops;
 * 'inside' / 'outside' keep the aspect ratio within / beyond the box.
 */
export type ResizeFit = 'fill' | 'contain' | 'cover' | 'inside' | 'outside';

/**
 * The resampling filter (sharp's names): 'nearest' for masks and pixel art, 'cubic' to match the
 * Qwen processors, 'lanczos3' for the sharpest downscale.
 */
export type ResizeKernel = 'nearest' | 'linear' | 'cubic' | 'mitchell' | 'lanczos2' | 'lanczos3';

/**
 * A target size and how to reach it; crop and smartResizeImage take the same spec to resize in
 * their own pass.
 */
export interface ResizeSpec {
  /** Target width; leave out width or height to keep the aspect ratio (fit is then moot). */
  width?: number;
  height?: number;
  /** Default 'fill'. */
  fit?: ResizeFit;
  /** Default 'lanczos3' (sharp's default). */
  kernel?: ResizeKernel;
  /** Letterbox colour for 'contain'. Default black. */
  background?: string;
}

/** What resize takes: the target size and fit, and the output encoding. */
export type ResizeOptions = ResizeSpec & OutputOptions;

/**
 * Resizes an image to `options`' size, stretching by default as the model processors do. Throws
 * InvalidImageArgumentError for a size that is not a positive integer or is missing on both sides.
 */
export async function resize(source: ImageSource, options: ResizeOptions): Promise<EncodedImage> {
  const opened = await openImage(source, options);
  return finishImage(opened, applyResize(opened.pipeline, options), options);
}

/** Adds a resize step to a pipeline after checking the size; shared with crop and smartResizeImage. */
export function applyResize(pipeline: Sharp, spec: ResizeSpec): Sharp {
  const { width, height } = spec;
  for (const [name, value] of [['width', width], ['height', height]] as const) {
    if (value !== undefined && !(Number.isInteger(value) && value >= 1)) {
      throw new InvalidImageArgumentError({ argument: name, expected: 'an integer ≥ 1', received: String(value), value });
    }
  }
  if (width === undefined && height === undefined) {
    throw new InvalidImageArgumentError({ argument: 'size', expected: 'a width, a height or both', received: 'neither' });
  }
  return pipeline.resize({
    width,
    height,
    // With one side given, every fit keeps the aspect ratio; sharp's 'fill' alone would not.
    fit: width === undefined || height === undefined ? 'inside' : (spec.fit ?? 'fill'),
    kernel: spec.kernel ?? 'lanczos3',
    background: spec.background ?? '#000000',
  });
}
