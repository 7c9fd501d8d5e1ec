import { defineTool } from '@saccade/core';
import type { Tool } from '@saccade/spec';
import { z } from 'zod';
import { exactForm } from './exact-form';
import {
  angleBetweenLines,
  angleOpposite,

  circleFromPoints,
  clean,
  distancePointToLine,
  heronArea,
  polygonArea,
  triangleType,
  type GeometryResult,
  type Point,
} from './geometry-functions';

/** The function names the geometry tool takes (VISTA-Gym's SymPy geometry functions). */
export const GEOMETRY_FUNCTIONS = [
  'triangle_angle',
  'triangle_angle_all',
  'triangle_angle_from_two',
  'triangle_area',
  'triangle_type',
  'circle_from_points',
  'inscribed_angle',
  'polygon_area',
  'angle_between_lines',
  'distance_point_to_line',
  'pythagorean',
] as const;

/** One of {@link GEOMETRY_FUNCTIONS}. */
export type GeometryFunction = (typeof GEOMETRY_FUNCTIONS)[number];

const point = z.tuple([z.number(), z.number()]);
const line = z.tuple([point, point]);
const positive = z.number().positive();

const input = z.object({
  function: z.enum(GEOMETRY_FUNCTIONS),
  a: positive.optional().describe('Side a (triangles) or a leg (pythagorean).'),
  b: positive.optional().describe('Side b, or the other leg.'),
  c: positive.optional().describe('Side c, or the hypotenuse (pythagorean).'),
  angles: z.array(z.number()).optional().describe('Two angles in degrees (triangle_angle_from_two).'),
  points: z.array(point).optional().describe('Vertices [[x, y], …] (triangle_area, polygon_area, circle_from_points).'),
  point: point.optional().describe('[x, y] (distance_point_to_line).'),
  line: line.optional().describe('[[x1, y1], [x2, y2]] (distance_point_to_line).'),
  lines: z.array(line).optional().describe('Two lines (angle_between_lines).'),
  central_angle: z.number().optional().describe('The central angle on the same arc, degrees (inscribed_angle).'),
});

/** The geometry tool's arguments: the function's name and its arguments. */
export type GeometryInput = z.infer<typeof input>;

function need<T>(value: T | undefined, what: string, fn: string): T {
  if (value === undefined) throw new Error(`expected ${what} for ${fn}`);
  return value;
}

const number = (value: number): GeometryResult => ({ result: value, formatted: exactForm(value) ?? String(value) });

/** Runs one of VISTA's SymPy geometry functions. Angles are in degrees. */
export function runGeometry(args: GeometryInput): GeometryResult {
  const fn = args.function;
  const sides = () => [need(args.a, 'sides a, b and c', fn), need(args.b, 'sides a, b and c', fn), need(args.c, 'sides a, b and c', fn)] as const;
  switch (fn) {
    case 'triangle_angle': {
      const [a, b, c] = sides();
      return number(angleOpposite(a, b, c));
    }
    case 'triangle_angle_all': {
      const [a, b, c] = sides();
      const angles = { A: angleOpposite(b, c, a), B: angleOpposite(a, c, b), C: angleOpposite(a, b, c) };
      return { result: angles, formatted: Object.entries(angles).map(([name, value]) => `${name} = ${exactForm(value) ?? value}`).join(', ') };
    }
    case 'triangle_angle_from_two': {
      const angles = need(args.angles, 'two angles', fn);
      if (angles.length !== 2) throw new Error(`expected two angles for ${fn}, received ${angles.length}`);
      const third = clean(180 - angles[0]! - angles[1]!);
      if (!(third > 0) || angles.some((angle) => !(angle > 0))) throw new Error(`expected two positive angles summing to less than 180, received ${angles.join(', ')}`);
      return number(third);
    }
    case 'triangle_area': {
      if (args.points !== undefined) {
        if (args.points.length !== 3) throw new Error(`expected 3 points for ${fn}, received ${args.points.length}`);
        return number(polygonArea(args.points as Point[]));
      }
      const [a, b, c] = sides();
      return number(heronArea(a, b, c));
    }
    case 'triangle_type': {
      const [a, b, c] = sides();
      const type = triangleType(a, b, c);
      return { result: { type }, formatted: type };
    }
    case 'circle_from_points': {
      const points = need(args.points, 'three points', fn);
      if (points.length !== 3) throw new Error(`expected 3 points for ${fn}, received ${points.length}`);
      const { x, y, radius } = circleFromPoints(points[0] as Point, points[1] as Point, points[2] as Point);
      const show = (value: number) => exactForm(value) ?? String(value);
      return { result: { x, y, radius }, formatted: `center (${show(x)}, ${show(y)}), radius ${show(radius)}` };
    }
    case 'inscribed_angle':
      return number(clean(need(args.central_angle, 'central_angle', fn) / 2));
    case 'polygon_area':
      return number(polygonArea(need(args.points, 'points', fn) as Point[]));
    case 'angle_between_lines': {
      const lines = need(args.lines, 'two lines', fn);
      if (lines.length !== 2) throw new Error(`expected two lines for ${fn}, received ${lines.length}`);
      return number(angleBetweenLines(lines[0] as [Point, Point], lines[1] as [Point, Point]));
    }
    case 'distance_point_to_line':
      return number(distancePointToLine(need(args.point, 'point', fn) as Point, need(args.line, 'line', fn) as [Point, Point]));
    case 'pythagorean': {
      const { a, b, c } = args;
      if (a !== undefined && b !== undefined) return number(clean(Math.hypot(a, b)));
      if (c !== undefined && (a ?? b) !== undefined) {
        const leg = (a ?? b)!;
        if (!(c > leg)) throw new Error(`expected the hypotenuse c to be longer than the leg, received c = ${c}, leg = ${leg}`);
        return number(clean(Math.sqrt(c * c - leg * leg)));
      }
      throw new Error(`expected two of a, b (legs) and c (hypotenuse) for ${fn}`);
    }
  }
}

/** Settings of {@link createGeometryTool}. */
export interface GeometryToolSettings {
  /** The name the model calls (default `geometry`). */
  name?: string;
}

/**
 * The geometry functions VISTA-Gym's SymPy tool offers, computed in closed form: results come as
 * `{"result", "formatted"}`, formatted exactly (`5*sqrt(2)`, `25/2`) where the value is a rational
 * or a rational times a square root.
 */
export function createGeometryTool({ name = 'geometry' }: GeometryToolSettings = {}): Tool<GeometryInput> {
  return defineTool({
    name,
    description: `Geometry calculations (angles in degrees). function: ${GEOMETRY_FUNCTIONS.join(', ')}; with sides a, b, c, points, point, line, lines, angles or central_angle as each needs.`,
    inputSchema: input,
    async execute(args) {
      return { text: JSON.stringify(runGeometry(args)) };
    },
  });
}

/** The geometry tool. */
export const geometryTool = createGeometryTool();
