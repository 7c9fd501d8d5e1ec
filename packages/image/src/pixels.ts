/**
 * `@saccade/image/pixels`: operations on decoded pixels in plain JS, without loading sharp (the
 * model's worker threads and its patch writer use them). Also exported from the main entry.
 */
export { averagePixels } from './average-pixels.js';
export type { RawImage } from './encoded-image.js';
