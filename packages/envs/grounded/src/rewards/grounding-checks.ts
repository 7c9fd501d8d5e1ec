import { parsePoints, pointInImage, type ImageSize, type Point } from '@saccade/core';

/** ViGoRL's minimum distance between two crop points that count as distinct (10 px). */
export const DISTINCT_POINT_DISTANCE = 10;

/** The points `(x, y)` of a text, in order, that lie on the image (points off the image ground nothing). */
export function groundedPoints(text: string, size: ImageSize): Point[] {
  return parsePoints(text).filter((point) => pointInImage(point, size));
}

/**
 * The points that count as distinct, in order: a point counts when it is at least `minDistance`
 * (Euclidean, default 10 px) from every point counted before it. Greedy and order-dependent, as a
 * model that looks at (100, 100), (105, 100), (112, 100) has looked at two places, not three.
 *
 * @example
 * distinctPoints([{x: 100, y: 100}, {x: 105, y: 100}, {x: 112, y: 100}]) // [{x: 100, y: 100}, {x: 112, y: 100}]
 */
export function distinctPoints(points: readonly Point[], minDistance = DISTINCT_POINT_DISTANCE): Point[] {
  const kept: Point[] = [];
  for (const point of points) {
    if (kept.every((other) => Math.hypot(point.x - other.x, point.y - other.y) >= minDistance)) kept.push(point);
  }
  return kept;
}
