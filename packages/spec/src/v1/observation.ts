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
