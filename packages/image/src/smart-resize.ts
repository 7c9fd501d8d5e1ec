import type { EncodedImage, ImageSource, OutputOptions } from './encoded-image.js';
import { finishImage } from './finish-image.js';
import { InvalidImageArgumentError } from './invalid-image-argument-error.js';
import { openImage } from './open-image.js';
import { applyResize, type ResizeKernel } from './resize.js';

/**
 * `min_pixels` of Qwen2.5-VL's published `preprocessor_config.json` (56 × 56 = 3,136), what vLLM
 * and transformers use when the server is started without `--mm-processor-kwargs`.
 */
export const QWEN25_VL_MIN_PIXELS = 3_136;
/**
 * `max_pixels` of Qwen2.5-VL's published `preprocessor_config.json` (16,384 × 28 × 28 =
 * 12,845,056), not the 1,003,520 of the `smart_resize` function's signature, which the processor
 * never uses when the model's config sets it.
 */
export const QWEN25_VL_MAX_PIXELS = 12_845_056;

/**
 * The factor and pixel bounds of Qwen's processor, for smartResize to reproduce a server's resize.
 */
export interface SmartResizeOptions {
  /** Both sides become multiples of this: patch size × merge size (14 × 2 for Qwen2-VL / Qwen2.5-VL). */
  factor?: number;
  /** Default `QWEN25_VL_MIN_PIXELS`, 3,136 (56 × 56). */
  minPixels?: number;
  /** Default `QWEN25_VL_MAX_PIXELS`, 12,845,056; set it to what the server's processor uses (e.g. `--mm-processor-kwargs '{"max_pixels": 1003520}'`). */
  maxPixels?: number;
}

/** The largest aspect ratio Qwen's processor accepts. */
export const SMART_RESIZE_MAX_ASPECT_RATIO = 200;

/**
 * The size Qwen2-VL / Qwen2.5-VL's image processor resizes an image to (`smart_resize` in
 * transformers' image_processing_qwen2_vl.py), reproduced exactly, Python's round-half-to-even
 * included: each side rounded to a multiple of `factor`, then scaled down (floor) when the area
 * exceeds maxPixels or up (ceil) when below minPixels. The pixel bounds default to Qwen2.5-VL's
 * published processor settings, so the size (and `width / 28 × height / 28` image tokens) is what
 * a server started with defaults sees: 2048 × 2048 → 2044 × 2044, 5,329 tokens. Tools use it to
 * map a model's coordinates back to the original image.
 */
export function smartResize(
  size: { width: number; height: number },
  options: SmartResizeOptions = {},
): { width: number; height: number } {
  const { width, height } = size;
  const factor = options.factor ?? 28;
  const minPixels = options.minPixels ?? QWEN25_VL_MIN_PIXELS;
  const maxPixels = options.maxPixels ?? QWEN25_VL_MAX_PIXELS;
  if (!(width > 0 && height > 0)) {
    throw new InvalidImageArgumentError({ argument: 'size', expected: 'a positive width and height', received: `${width} × ${height}` });
  }
  const ratio = Math.max(height, width) / Math.min(height, width);
  if (ratio > SMART_RESIZE_MAX_ASPECT_RATIO) {
    throw new InvalidImageArgumentError({
      argument: 'size',
      expected: `an aspect ratio of at most ${SMART_RESIZE_MAX_ASPECT_RATIO}`,
      received: `${width} × ${height} (ratio ${ratio})`,
    });
  }
  let heightBar = roundHalfToEven(height / factor) * factor;
  let widthBar = roundHalfToEven(width / factor) * factor;
  if (heightBar * widthBar > maxPixels) {
    const beta = Math.sqrt((height * width) / maxPixels);
    heightBar = Math.max(factor, Math.floor(height / beta / factor) * factor);
    widthBar = Math.max(factor, Math.floor(width / beta / factor) * factor);
  } else if (heightBar * widthBar < minPixels) {
    const beta = Math.sqrt(minPixels / (height * width));
    heightBar = Math.ceil((height * beta) / factor) * factor;
    widthBar = Math.ceil((width * beta) / factor) * factor;
  }
  return { width: widthBar, height: heightBar };
}

/** smartResize's bounds plus the resampling filter smartResizeImage uses. */
export interface SmartResizeImageOptions extends SmartResizeOptions {
  /** Default 'cubic': the processors resample with bicubic. */
  kernel?: ResizeKernel;
}

/**
 * Resizes an image to its smartResize size (stretching, as the processor does). The pixel bounds
 * live in `options`; `output.maxPixels` is the input limit every reader has.
 */
export async function smartResizeImage(
  source: ImageSource,
  options: SmartResizeImageOptions = {},
  output: OutputOptions = {},
): Promise<EncodedImage> {
  const opened = await openImage(source, output);
  const target = smartResize(opened, options);
  const pipeline = applyResize(opened.pipeline, { ...target, fit: 'fill', kernel: options.kernel ?? 'cubic' });
  return finishImage(opened, pipeline, output);
}

/** Python 3's round(): halves go to the even neighbour (round(2.5) == 2). */
function roundHalfToEven(value: number): number {
  const floor = Math.floor(value);
  const fraction = value - floor;
  if (fraction > 0.5) return floor + 1;
  if (fraction < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}
