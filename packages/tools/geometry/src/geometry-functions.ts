/** [x, y]. */
export type Point = [number, number];

/** What a geometry function returns: the value and how it reads. */
export interface GeometryResult {
  /** The value (a number, or an object of numbers). */
  result: number | Record<string, number | string>;
  /** How the value reads: exact when it can be (`5*sqrt(2)`), else a decimal. */
  formatted: string;
}

const DEGREES = 180 / Math.PI;

/** Rounds float noise away (1e-12 relative) so that exact values print exactly. */
export const clean = (value: number) => {
  const rounded = Math.round(value * 1e10) / 1e10;
  return Math.abs(rounded - value) <= 1e-9 * Math.max(1, Math.abs(value)) ? rounded : value;
};

export function checkTriangleSides(a: number, b: number, c: number): void {
  if (!(a > 0 && b > 0 && c > 0)) throw new Error(`expected three positive side lengths, received ${a}, ${b}, ${c}`);
  if (a + b <= c || a + c <= b || b + c <= a) throw new Error(`expected sides that form a triangle (each shorter than the other two together), received ${a}, ${b}, ${c}`);
}

/** The angle opposite side c, in degrees (law of cosines). */
export function angleOpposite(a: number, b: number, c: number): number {
  checkTriangleSides(a, b, c);
  return clean(Math.acos(Math.max(-1, Math.min(1, (a * a + b * b - c * c) / (2 * a * b)))) * DEGREES);
}

/** Shoelace area of a simple polygon (exact for integer vertices: a multiple of 1/2). */
export function polygonArea(points: readonly Point[]): number {
  if (points.length < 3) throw new Error(`expected at least 3 points, received ${points.length}`);
  let twice = 0;
  for (let i = 0; i < points.length; i++) {
    const [x1, y1] = points[i]!;
    const [x2, y2] = points[(i + 1) % points.length]!;
    twice += x1 * y2 - x2 * y1;
  }
  return Math.abs(twice) / 2;
}

export function heronArea(a: number, b: number, c: number): number {
  checkTriangleSides(a, b, c);
  // The stable form of Heron's formula (sides sorted a ≥ b ≥ c).
  const [x, y, z] = [a, b, c].sort((p, q) => q - p) as [number, number, number];
  return clean(Math.sqrt((x + (y + z)) * (z - (x - y)) * (z + (x - y)) * (x + (y - z))) / 4);
}

export function triangleType(a: number, b: number, c: number): string {
  checkTriangleSides(a, b, c);
  const [x, y, z] = [a, b, c].sort((p, q) => p - q) as [number, number, number];
  const same = (p: number, q: number) => Math.abs(p - q) <= 1e-9 * Math.max(p, q);
  const sides = same(x, z) ? 'equilateral' : same(x, y) || same(y, z) ? 'isosceles' : 'scalene';
  const lhs = x * x + y * y;
  const angles = same(lhs, z * z) ? 'right' : lhs > z * z ? 'acute' : 'obtuse';
  return `${sides} ${angles}`;
}

export function circleFromPoints([ax, ay]: Point, [bx, by]: Point, [cx, cy]: Point): { x: number; y: number; radius: number } {
  const d = 2 * (ax * (by - cy) + bx * (cy - ay) + cx * (ay - by));
  if (Math.abs(d) < 1e-12) throw new Error('expected three points not on one line (collinear points have no circle through them)');
  const a2 = ax * ax + ay * ay;
  const b2 = bx * bx + by * by;
  const c2 = cx * cx + cy * cy;
  const x = (a2 * (by - cy) + b2 * (cy - ay) + c2 * (ay - by)) / d;
  const y = (a2 * (cx - bx) + b2 * (ax - cx) + c2 * (bx - ax)) / d;
  return { x: clean(x), y: clean(y), radius: clean(Math.hypot(ax - x, ay - y)) };
}

/** The acute angle between two lines, each through two points, in degrees. */
export function angleBetweenLines([[x1, y1], [x2, y2]]: [Point, Point], [[x3, y3], [x4, y4]]: [Point, Point]): number {
  const [ux, uy, vx, vy] = [x2 - x1, y2 - y1, x4 - x3, y4 - y3];
  if ((ux === 0 && uy === 0) || (vx === 0 && vy === 0)) throw new Error('expected each line through two distinct points');
  const angle = Math.abs(Math.atan2(ux * vy - uy * vx, ux * vx + uy * vy)) * DEGREES;
  return clean(angle > 90 ? 180 - angle : angle);
}

export function distancePointToLine([px, py]: Point, [[x1, y1], [x2, y2]]: [Point, Point]): number {
  const length = Math.hypot(x2 - x1, y2 - y1);
  if (length === 0) throw new Error('expected the line through two distinct points');
  return clean(Math.abs((x2 - x1) * (y1 - py) - (x1 - px) * (y2 - y1)) / length);
}
