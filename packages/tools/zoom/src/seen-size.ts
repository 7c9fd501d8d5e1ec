import { imageSize } from '@saccade/image';
import type { ImageData } from '@saccade/spec';

export interface Size {
  width: number;
  height: number;
}

/**
 * How big the model saw an image, from its true size. Agents that resize images before sending
 * them (Qwen2.5-VL's smart resize, a max-pixels cap) make the model write coordinates in the
 * resized image; pass the same mapping, e.g. `(size) => smartResize(size)`, and the tools scale
 * the coordinates back to the original.
 */
export type SeenSize = (original: Size) => Size;

/** The first image of the episode (the env's original) and the factor from seen to original pixels. */
export async function originalImage(images: readonly ImageData[], seenSize: SeenSize | undefined): Promise<{ image: ImageData; size: Size; scaleX: number; scaleY: number }> {
  const image = images[0];
  if (image === undefined) throw new Error('expected an image in the episode to work on, but the episode has none');
  const size = image.width !== undefined && image.height !== undefined ? { width: image.width, height: image.height } : await imageSize(image);
  const seen = seenSize?.(size) ?? size;
  return { image, size, scaleX: size.width / seen.width, scaleY: size.height / seen.height };
}

/** Formats a number for the model: integers as is, others with at most 2 decimals. */
export const formatNumber = (value: number) => String(Math.round(value * 100) / 100);
