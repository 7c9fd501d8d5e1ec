import { checkTool, runTool } from '@saccade/core';
import { describe, expect, it } from 'vitest';
import { exactForm } from './exact-form';
import { geometryTool, runGeometry, type GeometryInput } from './geometry-tool';

const run = (args: GeometryInput) => runGeometry(args);

describe('geometry (VISTA SymPy functions)', () => {
  it('triangles', () => {
    expect(run({ function: 'triangle_angle', a: 3, b: 4, c: 5 })).toEqual({ result: 90, formatted: '90' });
    expect(run({ function: 'triangle_angle_all', a: 1, b: 1, c: 1 })).toEqual({ result: { A: 60, B: 60, C: 60 }, formatted: 'A = 60, B = 60, C = 60' });
    expect(run({ function: 'triangle_angle_from_two', angles: [35, 65] })).toEqual({ result: 80, formatted: '80' });
    expect(run({ function: 'triangle_area', points: [[0, 0], [5, 0], [0, 5]] })).toEqual({ result: 12.5, formatted: '25/2' });
    expect(run({ function: 'triangle_area', a: 2, b: 2, c: 2 })).toEqual({ result: 1.7320508076, formatted: 'sqrt(3)' });
    expect(run({ function: 'triangle_type', a: 5, b: 5, c: 5 * Math.SQRT2 })).toEqual({ result: { type: 'isosceles right' }, formatted: 'isosceles right' });
    expect(run({ function: 'triangle_type', a: 4, b: 5, c: 7 }).formatted).toBe('scalene obtuse');
    expect(() => run({ function: 'triangle_angle', a: 1, b: 2, c: 3 })).toThrow('expected sides that form a triangle (each shorter than the other two together), received 1, 2, 3');
  });

  it('circles, polygons, lines and right triangles', () => {
    expect(run({ function: 'circle_from_points', points: [[0, 0], [4, 0], [0, 2]] })).toEqual({ result: { x: 2, y: 1, radius: 2.2360679775 }, formatted: 'center (2, 1), radius sqrt(5)' });
    expect(run({ function: 'inscribed_angle', central_angle: 110 })).toEqual({ result: 55, formatted: '55' });
    expect(run({ function: 'polygon_area', points: [[0, 0], [4, 0], [4, 3], [0, 3]] })).toEqual({ result: 12, formatted: '12' });
    expect(run({ function: 'angle_between_lines', lines: [[[0, 0], [1, 0]], [[0, 0], [1, 1]]] })).toEqual({ result: 45, formatted: '45' });
    expect(run({ function: 'distance_point_to_line', point: [0, 0], line: [[0, 10], [10, 0]] })).toEqual({ result: 7.0710678119, formatted: '5*sqrt(2)' });
    expect(run({ function: 'pythagorean', a: 3, b: 4 })).toEqual({ result: 5, formatted: '5' });
    expect(run({ function: 'pythagorean', c: 2, a: 1 })).toEqual({ result: 1.7320508076, formatted: 'sqrt(3)' });
    expect(() => run({ function: 'circle_from_points', points: [[0, 0], [1, 1], [2, 2]] })).toThrow('expected three points not on one line');
  });

  it('writes exact forms', () => {
    expect([0.5, Math.sqrt(3) / 2, -2 * Math.sqrt(6), Math.PI].map(exactForm)).toEqual(['1/2', 'sqrt(3)/2', '-2*sqrt(6)', undefined]);
  });

  it('as a tool: JSON text, missing arguments named, checkTool passes', async () => {
    expect(await runTool(geometryTool, { function: 'pythagorean', a: 6, b: 8 })).toMatchObject({ ok: true, result: { text: '{"result":10,"formatted":"10"}' } });
    expect(await runTool(geometryTool, { function: 'triangle_area' })).toMatchObject({ ok: false, message: '"geometry" failed: expected sides a, b and c for triangle_area' });
    expect(await checkTool(geometryTool, { sampleInput: { function: 'pythagorean', a: 3, b: 4 } })).toEqual({ ok: true, toolName: 'geometry', failures: [] });
  });
});
