import { isImageSize } from '@saccade/core';
import { recordedImageSize } from '@saccade/image';
import { InvalidArgumentError, type ImageData } from '@saccade/spec';

/** An image's width and height in pixels. */
export interface Size {
  width: number;
  height: number;
}

/**
 * How big the model saw an image, from its true size. Agents that resize images before sending
 * them (Qwen2.5-VL's smart resize, a max-pixels cap) make the model write coordinates in the
 * resized image; pass the same mapping, e.g. `(size) => smartResize(size)`, and the tools scale
 * the coordinates back to the original. A fixed size (`{width: 64, height: 64}`, JSON-friendly for
 * `--tool-options`) is a model that sees every image at that size, as Saccade's built-in one does.
 */
export type SeenSize = ((original: Size) => Size) | Size;

/** Refuses a fixed seen size that is not two positive numbers (settings may come from JSON). */
export function checkSeenSize(seenSize: unknown): SeenSize | undefined {
  if (seenSize === undefined || typeof seenSize === 'function') return seenSize as SeenSize | undefined;
  if (isImageSize(seenSize)) return { width: seenSize.width, height: seenSize.height };
  throw new InvalidArgumentError({ argument: 'seenSize', expected: 'a function of the original size, or {width, height} in pixels', value: seenSize });
}

/** The first image of the episode (the env's original) and the factor from seen to original pixels. */
export async function originalImage(images: readonly ImageData[], seenSize: SeenSize | undefined): Promise<{ image: ImageData; size: Size; scaleX: number; scaleY: number }> {
  const image = images[0];
  if (image === undefined) throw new Error('expected an image in the episode to work on, but the episode has none');
  const size = await recordedImageSize(image);
  const seen = typeof seenSize === 'function' ? seenSize(size) : (seenSize ?? size);
  return { image, size, scaleX: size.width / seen.width, scaleY: size.height / seen.height };
}

/** Formats a number for the model: integers as is, others with at most 2 decimals. */
export const formatNumber = (value: number) => String(Math.round(value * 100) / 100);
