import { num, svgText } from '../common/svg';

export interface Point {
  x: number;
  y: number;
}

/** A figure drawn to scale: named points, segments between them, circles, and text marks. */
export interface Figure {
  points: Record<string, Point>;
  segments: [string, string][];
  circles: { centre: string; radius: number }[];
  /** Given values written on the figure (an angle at a vertex, a length beside a side). */
  marks: { x: number; y: number; text: string }[];
  /** Small right-angle squares and equal-length ticks, as raw SVG. */
  decorations: string[];
}

export const FIGURE_WIDTH = 480;
export const FIGURE_HEIGHT = 360;
const INK = '#1a1a1a';

export const add = (a: Point, b: Point): Point => ({ x: a.x + b.x, y: a.y + b.y });
export const sub = (a: Point, b: Point): Point => ({ x: a.x - b.x, y: a.y - b.y });
export const scale = (a: Point, factor: number): Point => ({ x: a.x * factor, y: a.y * factor });
export const length = (a: Point): number => Math.hypot(a.x, a.y);
export const unit = (a: Point): Point => scale(a, 1 / length(a));
export const polar = (degrees: number, radius = 1): Point => ({ x: radius * Math.cos((degrees * Math.PI) / 180), y: -radius * Math.sin((degrees * Math.PI) / 180) });
const round = (point: Point): Point => ({ x: Math.round(point.x * 100) / 100, y: Math.round(point.y * 100) / 100 });

/** Scales and centres the points into the canvas, leaving room for labels; rounds them as the SVG will. */
export function fitPoints(points: Record<string, Point>, margin = 60): { points: Record<string, Point>; factor: number } {
  const all = Object.values(points);
  const minX = Math.min(...all.map((p) => p.x));
  const maxX = Math.max(...all.map((p) => p.x));
  const minY = Math.min(...all.map((p) => p.y));
  const maxY = Math.max(...all.map((p) => p.y));
  const factor = Math.min((FIGURE_WIDTH - 2 * margin) / (maxX - minX || 1), (FIGURE_HEIGHT - 2 * margin) / (maxY - minY || 1));
  const offset = { x: (FIGURE_WIDTH - (maxX - minX) * factor) / 2 - minX * factor, y: (FIGURE_HEIGHT - (maxY - minY) * factor) / 2 - minY * factor };
  return { points: Object.fromEntries(Object.entries(points).map(([name, p]) => [name, round(add(scale(p, factor), offset))])), factor };
}

/** Where to write the value of the angle at `vertex` between rays to `a` and `b`: on its bisector. */
export function angleMarkPosition(vertex: Point, a: Point, b: Point, distance = 30): Point {
  const bisector = unit(add(unit(sub(a, vertex)), unit(sub(b, vertex))));
  return add(vertex, scale(bisector, distance));
}

/** Where to write a side's length: beside its middle, on the side away from `away`. */
export function sideMarkPosition(a: Point, b: Point, away: Point, distance = 18): Point {
  const middle = scale(add(a, b), 0.5);
  const direction = unit(sub(b, a));
  let normal = { x: -direction.y, y: direction.x };
  if ((away.x - middle.x) * normal.x + (away.y - middle.y) * normal.y > 0) normal = scale(normal, -1);
  return add(middle, scale(normal, distance));
}

export function rightAngleMark(vertex: Point, a: Point, b: Point, size = 12): string {
  const u = scale(unit(sub(a, vertex)), size);
  const v = scale(unit(sub(b, vertex)), size);
  const p1 = add(vertex, u);
  const p2 = add(add(vertex, u), v);
  const p3 = add(vertex, v);
  return `<polyline points="${num(p1.x)},${num(p1.y)} ${num(p2.x)},${num(p2.y)} ${num(p3.x)},${num(p3.y)}" fill="none" stroke="${INK}" stroke-width="1.5"/>`;
}

/** A tick across the middle of a side: sides with the same ticks are equal. */
export function equalTick(a: Point, b: Point, size = 7): string {
  const middle = scale(add(a, b), 0.5);
  const direction = unit(sub(b, a));
  const normal = scale({ x: -direction.y, y: direction.x }, size);
  return `<line x1="${num(middle.x - normal.x)}" y1="${num(middle.y - normal.y)}" x2="${num(middle.x + normal.x)}" y2="${num(middle.y + normal.y)}" stroke="${INK}" stroke-width="2"/>`;
}

/** Point names are written outward from the figure's centre; each point is a dot. */
export function figureSvg(figure: Figure): string {
  const parts: string[] = [];
  const all = Object.values(figure.points);
  const centre = scale(all.reduce(add, { x: 0, y: 0 }), 1 / all.length);
  for (const circle of figure.circles) {
    const c = figure.points[circle.centre]!;
    parts.push(`<circle cx="${num(c.x)}" cy="${num(c.y)}" r="${num(circle.radius)}" fill="none" stroke="${INK}" stroke-width="2"/>`);
  }
  for (const [from, to] of figure.segments) {
    const a = figure.points[from]!;
    const b = figure.points[to]!;
    parts.push(`<line x1="${num(a.x)}" y1="${num(a.y)}" x2="${num(b.x)}" y2="${num(b.y)}" stroke="${INK}" stroke-width="2"/>`);
  }
  parts.push(...figure.decorations);
  for (const [name, point] of Object.entries(figure.points)) {
    parts.push(`<circle cx="${num(point.x)}" cy="${num(point.y)}" r="3.5" fill="${INK}"/>`);
    const away = length(sub(point, centre)) < 1 ? { x: 0, y: -1 } : unit(sub(point, centre));
    const label = add(point, scale(away, 17));
    parts.push(svgText(label.x, label.y, name, { size: 17, anchor: 'middle', middle: true, weight: 'bold' }));
  }
  for (const mark of figure.marks) parts.push(svgText(mark.x, mark.y, mark.text, { size: 15, anchor: 'middle', middle: true, fill: '#b01010' }));
  return parts.join('');
}
