import { InvalidImageArgumentError } from './invalid-image-argument-error.js';

/** A box in pixels of the image: x to the right, y down; x2 and y2 are the far edges (exclusive). */
export interface Box {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/**
 * The whole-pixel region a box covers: edges rounded outwards (x1, y1 down; x2, y2 up), then, with
 * `clip`, cut to the image. Throws when the box is malformed, leaves the image without `clip`, or is
 * empty after clipping: a model asking to zoom outside the image gets a readable error.
 */
export function clipBox(box: Box, width: number, height: number, clip = true): Box {
  const { x1, y1, x2, y2 } = box;
  if (![x1, y1, x2, y2].every(Number.isFinite) || x2 <= x1 || y2 <= y1) {
    throw new InvalidImageArgumentError({
      argument: 'box',
      expected: 'finite numbers with x1 < x2 and y1 < y2',
      received: formatBox(box),
      value: box,
    });
  }
  const outward = { x1: Math.floor(x1), y1: Math.floor(y1), x2: Math.ceil(x2), y2: Math.ceil(y2) };
  const clipped = {
    x1: Math.max(0, outward.x1),
    y1: Math.max(0, outward.y1),
    x2: Math.min(width, outward.x2),
    y2: Math.min(height, outward.y2),
  };
  const inside =
    clipped.x1 === outward.x1 && clipped.y1 === outward.y1 && clipped.x2 === outward.x2 && clipped.y2 === outward.y2;
  if (!clip && !inside) {
    throw new InvalidImageArgumentError({
      argument: 'box',
      expected: `a box inside the ${width} × ${height} image`,
      received: formatBox(box),
      value: box,
    });
  }
  if (clipped.x2 <= clipped.x1 || clipped.y2 <= clipped.y1) {
    throw new InvalidImageArgumentError({
      argument: 'box',
      expected: `a box overlapping the ${width} × ${height} image`,
      received: `${formatBox(box)}, empty after clipping`,
    });
  }
  return clipped;
}

function formatBox(box: Box): string {
  return `[${box.x1}, ${box.y1}, ${box.x2}, ${box.y2}]`;
}
