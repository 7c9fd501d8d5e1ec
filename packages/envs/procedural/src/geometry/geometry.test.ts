import { checkGeometry3K } from '@saccade/core';
import type { ImageData } from '@saccade/spec';
import { describe, expect, it } from 'vitest';
import { indices, pixelsOf } from '../../test/pixels';
import { createGeometrySource } from './geometry-generator';
import { GEOMETRY_PROBLEMS, type GeometryQuery } from './geometry-problems';

type Points = Record<string, { x: number; y: number }>;

/** Re-solves the figure from the drawn coordinates: the angle between two rays, or a length over the scale. */
function measure(points: Points, query: GeometryQuery, scale: number): number {
  if (query.kind === 'length') return Math.hypot(points[query.to]!.x - points[query.from]!.x, points[query.to]!.y - points[query.from]!.y) / scale;
  const v = points[query.vertex]!;
  const a = Math.atan2(points[query.from]!.y - v.y, points[query.from]!.x - v.x);
  const b = Math.atan2(points[query.to]!.y - v.y, points[query.to]!.x - v.x);
  let degrees = Math.abs(((a - b) * 180) / Math.PI);
  if (degrees > 180) degrees = 360 - degrees;
  return degrees;
}

describe('geometry generator', () => {
  it.each(GEOMETRY_PROBLEMS)('%s: the answer re-solved from the figure passes Geometry3K, and every point is drawn (15 seeds)', async (problem) => {
    const source = createGeometrySource({ problems: [problem], difficulty: 0.5 });
    for (const index of indices(15)) {
      const task = await source.get(index);
      const { points, query, scale } = task.metadata as { points: Points; query: GeometryQuery; scale: number };
      const measured = measure(points, query, scale);
      const check = checkGeometry3K(measured.toFixed(4), task);
      expect(check.correct, `${task.id}: ${task.question} measured ${measured}, stored ${String(task.answer)} (${check.detail})`).toBe(true);
      if (query.kind === 'angle') expect(Math.abs(measured - Number(task.answer))).toBeLessThan(0.05);
      if (task.answerType === 'multiple-choice') {
        expect(task.choices![task.metadata!.answer_index as number]).toBe(task.answer);
        expect(new Set(task.choices).size).toBe(4);
      }
      const pixels = await pixelsOf(task.images[0] as ImageData);
      for (const [name, point] of Object.entries(points)) expect(pixels.luma(Math.round(point.x), Math.round(point.y)), `point ${name} of ${task.id}`).toBeLessThan(90);
    }
  });

  it('gives both free answers and multiple choice, and a wrong value fails the check', async () => {
    const source = createGeometrySource({ difficulty: 0.5 });
    const styles = new Set(indices(40).map((index) => source.generate(index).answerType));
    expect([...styles].sort()).toEqual(['multiple-choice', 'number']);
    const task = await createGeometrySource({ problems: ['triangle-angle'], answerStyle: 'free' }).get(1);
    expect(checkGeometry3K(String(Number(task.answer) + 0.4), task).correct).toBe(true);
    expect(checkGeometry3K(String(Number(task.answer) + 1), task).correct).toBe(false);
  });

  it('difficulty unlocks harder problems and keeps given values off the question text', () => {
    const sample = (difficulty: number) => indices(40).map((index) => createGeometrySource({ difficulty }).generate(index));
    const easy = sample(0);
    const hard = sample(1);
    expect(new Set(easy.map((task) => task.metadata.problem))).toEqual(new Set(['triangle-angle', 'isosceles-angle', 'parallel-lines']));
    expect(hard.some((task) => task.metadata.problem === 'hypotenuse' || task.metadata.problem === 'right-triangle-leg')).toBe(true);
    expect(easy.every((task) => task.question.includes('Given'))).toBe(true);
    expect(hard.every((task) => !task.question.includes('Given'))).toBe(true);
  });
});
