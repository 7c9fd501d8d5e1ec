import type { Sharp } from 'sharp';
import type { EncodedImage, ImageMediaType, OutputOptions } from './encoded-image.js';
import { explainFailure, type OpenedImage } from './open-image.js';

/** JPEG/WebP quality when none is given: higher than sharp's 80, since models read small text. */
export const DEFAULT_QUALITY = 90;

/** The format a result takes: the one asked for, else the input's, else PNG. */
export function outputMediaType(opened: OpenedImage, options: OutputOptions): ImageMediaType {
  return options.format ?? opened.mediaType ?? 'image/png';
}

/**
 * Encodes the end of a pipeline that started from `opened`. Decoding happens here, so this is
 * where truncated files fail; the failure is explained against the input's bytes.
 */
export async function finishImage(
  opened: OpenedImage,
  pipeline: Sharp,
  options: OutputOptions = {},
): Promise<EncodedImage> {
  const mediaType = outputMediaType(opened, options);
  const quality = options.quality ?? DEFAULT_QUALITY;
  const encoder =
    mediaType === 'image/png'
      ? pipeline.png()
      : mediaType === 'image/jpeg'
        ? pipeline.jpeg({ quality })
        : pipeline.webp({ quality });
  try {
    const { data, info } = await encoder.toBuffer({ resolveWithObject: true });
    return { data, mediaType, width: info.width, height: info.height };
  } catch (error) {
    throw await explainFailure(error, opened.bytes, opened.source, opened.maxPixels);
  }
}

/** Runs a pipeline to raw pixels, with the same failure explanation as finishImage. */
export async function finishRaw(
  opened: OpenedImage,
  pipeline: Sharp,
): Promise<{ data: Buffer; width: number; height: number; channels: number }> {
  try {
    const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height, channels: info.channels };
  } catch (error) {
    throw await explainFailure(error, opened.bytes, opened.source, opened.maxPixels);
  }
}
