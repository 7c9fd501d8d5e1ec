/** A point in absolute pixels of the image as the model sees it. */
export interface Point {
  x: number;
  y: number;
}

/**
 * Finds ViGoRL's grounded points `(x, y)` (integers, regex `\((\d+)\s*,\s*(\d+)\)`) in order.
 * Stops after `maxPoints`; numbers too large to be pixels are skipped.
 *
 * @example
 * parsePoints('The sign at (120, 45) reads STOP; the car at (300,210).') // [{x: 120, y: 45}, {x: 300, y: 210}]
 */
export function parsePoints(text: string, { maxPoints = 1000 }: { maxPoints?: number } = {}): Point[] {
  if (typeof text !== 'string') return [];
  // Linear: every match starts at "(" and digits, spaces and "," cannot overlap ambiguously.
  const pattern = /\((\d+)\s*,\s*(\d+)\)/g;
  const points: Point[] = [];
  for (const match of text.matchAll(pattern)) {
    if (points.length >= maxPoints) break;
    const x = Number(match[1]);
    const y = Number(match[2]);
    if (Number.isSafeInteger(x) && Number.isSafeInteger(y)) points.push({ x, y });
  }
  return points;
}
