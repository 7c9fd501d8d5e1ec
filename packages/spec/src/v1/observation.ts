import type { ImageData } from './image-data';

/** The placeholder that marks where each image sits in an observation's text. */
export const IMAGE_PLACEHOLDER = '<image>';

/**
 * What an env shows the agent: text with exactly one `<image>` placeholder per image, in order.
 */
export interface Observation {
  text: string;
  images: ImageData[];
}

/** What a quoted `<image>` placeholder becomes: readable, but no longer markup. */
export const QUOTED_IMAGE_PLACEHOLDER = '‹image›';

/**
 * Model output quoted back in an observation (feedback that repeats what the model wrote), with
 * its `<image>` placeholders made inert: the model's text is untrusted input, and a quoted
 * placeholder would otherwise claim an image that never came.
 *
 * @example
 * quoteModelText('Left<image>') // 'Left‹image›'
 */
export function quoteModelText(text: string): string {
  return text.replaceAll(IMAGE_PLACEHOLDER, QUOTED_IMAGE_PLACEHOLDER);
}
