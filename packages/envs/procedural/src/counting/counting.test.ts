import { checkClevr } from '@saccade/core';
import type { ImageData } from '@saccade/spec';
import { describe, expect, it } from 'vitest';
import { COLOURS } from '../common/palette';
import { components, indices, pixelsOf } from '../../test/pixels';
import { answerCountingQuery, type CountingQuery } from './counting-questions';
import { createCountingSource } from './counting-generator';
import { SCENE_COLOURS, type SceneObject } from './counting-scene';

/** The scene read back from the PNG: one connected blob per object; shape from how much of its box it fills. */
async function readScene(image: ImageData): Promise<SceneObject[]> {
  const pixels = await pixelsOf(image);
  const objects: SceneObject[] = [];
  for (const colour of SCENE_COLOURS) {
    for (const blob of components(pixels, COLOURS[colour])) {
      const width = blob.maxX - blob.minX + 1;
      const height = blob.maxY - blob.minY + 1;
      const fill = blob.count / (width * height);
      objects.push({
        colour,
        shape: fill > 0.9 ? 'square' : fill > 0.65 ? 'circle' : 'triangle',
        size: width > 40 ? 'large' : 'small',
        x: (blob.minX + blob.maxX + 1) / 2,
        y: (blob.minY + blob.maxY + 1) / 2,
      });
    }
  }
  return objects;
}

const key = (object: SceneObject) => `${object.size} ${object.colour} ${object.shape}`;

describe('counting generator', () => {
  it('the scene read from the PNG (connected components per colour) matches, and gives the stored answer (40 seeds)', async () => {
    const kinds = new Set<string>();
    for (const difficulty of [0.2, 1]) {
      const source = createCountingSource({ difficulty });
      for (const index of indices(20)) {
        const task = await source.get(index);
        const stored = task.metadata!.objects as SceneObject[];
        const query = task.metadata!.query as CountingQuery;
        kinds.add(query.kind);
        const read = await readScene(task.images[0] as ImageData);
        expect(read.map(key).sort(), task.id).toEqual(stored.map(key).sort());
        // Anti-aliased edges are not the exact colour, so a blob's box may sit a pixel inside the drawn one.
        for (const object of stored) expect(read.some((found) => key(found) === key(object) && Math.hypot(found.x - object.x, found.y - object.y) <= 2), `${task.id}: ${key(object)}`).toBe(true);
        expect(answerCountingQuery(read, query), `${task.id}: ${task.question}`).toBe(task.answer);
        if (query.kind === 'count' && query.filter.colour !== undefined && query.filter.shape === undefined && query.filter.size === undefined) {
          const pixels = await pixelsOf(task.images[0] as ImageData);
          expect(String(components(pixels, COLOURS[query.filter.colour]).length)).toBe(task.answer);
        }
        expect(checkClevr(String(task.answer), task).correct).toBe(true);
      }
    }
    expect(kinds.size).toBeGreaterThanOrEqual(3);
  });

  it('difficulty adds objects and unlocks relation questions', () => {
    const easy = indices(20).map((index) => createCountingSource({ difficulty: 0 }).generate(index));
    const hard = indices(20).map((index) => createCountingSource({ difficulty: 1 }).generate(index));
    expect(Math.max(...easy.map((task) => (task.metadata.objects as unknown[]).length))).toBe(3);
    expect(Math.min(...hard.map((task) => (task.metadata.objects as unknown[]).length))).toBeGreaterThanOrEqual(12);
    expect(easy.every((task) => (task.metadata.query as CountingQuery).kind === 'count')).toBe(true);
    expect(hard.some((task) => (task.metadata.query as CountingQuery).kind.endsWith('relation'))).toBe(true);
  });
});
