import type { EncodedImage, ImageSource, OutputOptions } from './encoded-image.js';
import { finishImage } from './finish-image.js';
import { openImage } from './open-image.js';
import { checkColour, checkNumber, overlaySvg } from './svg-markup.js';

/** A dot for drawPoints: the pixel it is centred on, its radius and colour. */
export interface Point {
  x: number;
  y: number;
  /** Default 7: the red dot ViGoRL's point crop marks the point with. */
  radius?: number;
  /** CSS colour; default '#ff0000'. */
  color?: string;
}

/**
 * Draws filled circles centred on the given pixels (x, y are pixel indices, so the dot sits on
 * pixel (x, y) symmetrically). Points off the image draw what falls inside it.
 */
export async function drawPoints(
  source: ImageSource,
  points: readonly Point[],
  options: OutputOptions = {},
): Promise<EncodedImage> {
  const opened = await openImage(source, options);
  const circles = points.map((point, index) => {
    const x = checkNumber(point.x, `points[${index}].x`) + 0.5;
    const y = checkNumber(point.y, `points[${index}].y`) + 0.5;
    const radius = checkNumber(point.radius ?? 7, `points[${index}].radius`, 0);
    const color = checkColour(point.color ?? '#ff0000', `points[${index}].color`);
    return `<circle cx="${x}" cy="${y}" r="${radius}" fill="${color}"/>`;
  });
  const pipeline =
    circles.length === 0
      ? opened.pipeline
      : opened.pipeline.composite([{ input: overlaySvg(opened.width, opened.height, circles.join('')) }]);
  // Compositing adds an alpha channel; an opaque input stays opaque (RGB) on the way out.
  if (!opened.hasAlpha) pipeline.removeAlpha();
  return finishImage(opened, pipeline, options);
}
