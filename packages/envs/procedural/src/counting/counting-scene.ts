import type { Rng } from '@saccade/core';
import { levelInt } from '../common/difficulty';
import { COLOURS, type ColourName } from '../common/palette';
import { num } from '../common/svg';

/** The shapes a counting scene is drawn with. */
export const SHAPES = ['circle', 'square', 'triangle'] as const;
/** One of {@link SHAPES}. */
export type Shape = (typeof SHAPES)[number];
/** The sizes of a counting scene's objects. */
export const SIZES = ['small', 'large'] as const;
/** One of {@link SIZES}. */
export type Size = (typeof SIZES)[number];
/** The palette colours a counting scene uses. */
export const SCENE_COLOURS: readonly ColourName[] = ['red', 'green', 'blue', 'yellow', 'purple', 'cyan'];
export const SCENE_WIDTH = 480;
export const SCENE_HEIGHT = 360;
/** Half the width of an object's box, by size. */
export const RADIUS: Record<Size, number> = { small: 14, large: 26 };

/** One object; (x, y) is the centre of its bounding box. */
export interface SceneObject {
  shape: Shape;
  colour: ColourName;
  size: Size;
  x: number;
  y: number;
}

/** Places objects at random with a clear gap between them (so each is its own connected blob). */
export function drawScene(rng: Rng, difficulty: number): SceneObject[] {
  const count = levelInt(difficulty, 3, 14);
  // Easy scenes use fewer colours, so counting questions have more than one answer to look for.
  const colours = SCENE_COLOURS.slice(0, levelInt(difficulty, 3, 6));
  const objects: SceneObject[] = [];
  for (let attempt = 0; objects.length < count && attempt < 5000; attempt++) {
    const size = rng.pick(SIZES);
    const r = RADIUS[size];
    const x = rng.int(r + 12, SCENE_WIDTH - r - 12);
    const y = rng.int(r + 12, SCENE_HEIGHT - r - 12);
    if (objects.every((other) => Math.hypot(other.x - x, other.y - y) > r * 1.42 + RADIUS[other.size] * 1.42 + 10)) {
      objects.push({ shape: rng.pick(SHAPES), colour: rng.pick(colours), size, x, y });
    }
  }
  return objects;
}

export function objectSvg(object: SceneObject): string {
  const r = RADIUS[object.size];
  const fill = COLOURS[object.colour];
  const { x, y } = object;
  switch (object.shape) {
    case 'circle':
      return `<circle cx="${x}" cy="${y}" r="${r}" fill="${fill}"/>`;
    case 'square':
      return `<rect x="${x - r}" y="${y - r}" width="${2 * r}" height="${2 * r}" fill="${fill}"/>`;
    case 'triangle':
      return `<polygon points="${num(x)},${num(y - r)} ${num(x + r)},${num(y + r)} ${num(x - r)},${num(y + r)}" fill="${fill}"/>`;
  }
}
