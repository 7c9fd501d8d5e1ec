import { InvalidArgumentError } from '@saccade/spec';
import type { ImageSize } from '../checkers/grounding-checkers';
import type { Point } from '../formats/parse-points';

/**
 * The frame a model writes its points in, over the original image: the size it saw the image at
 * (`seenSize`, default the original's own) and whether a point names a cell of that frame
 * (`cells`: [column, row] from 0, its middle meant) instead of a pixel. The same two settings as the
 * point-crop tool's, so an env and its tool read a point alike: a VLM that saw a smart-resized
 * image writes pixels of the resized one; Saccade's built-in grid pointer names a cell of 8 × 8.
 */
export interface PointFrame {
  seenSize?: ImageSize;
  cells?: boolean;
}

/** A `{width, height}` of two positive finite numbers (a size that may come from JSON or YAML). */
export function isImageSize(value: unknown): value is ImageSize {
  const { width, height } = (value ?? {}) as Partial<Record<'width' | 'height', unknown>>;
  return [width, height].every((side) => typeof side === 'number' && Number.isFinite(side) && side > 0);
}

/** Refuses a frame that is not {seenSize?: {width, height} > 0, cells?: boolean} (env options may come from YAML). */
export function checkPointFrame(frame: PointFrame): PointFrame {
  const { seenSize, cells } = frame;
  if (seenSize !== undefined && !isImageSize(seenSize)) {
    throw new InvalidArgumentError({ argument: 'seenSize', expected: '{width, height}: the size the model sees the image at, in positive numbers', value: seenSize });
  }
  if (cells !== undefined && typeof cells !== 'boolean') throw new InvalidArgumentError({ argument: 'cells', expected: 'true or false', value: cells });
  if (cells === true && seenSize === undefined) throw new InvalidArgumentError({ argument: 'cells', expected: 'a seenSize with it (the grid the cells are of)', value: cells });
  return { ...(seenSize === undefined ? {} : { seenSize: { width: seenSize.width, height: seenSize.height } }), ...(cells === undefined ? {} : { cells }) };
}

/** The frame's size for an original of `size`: its seen size, else the original's. */
export function frameSize(frame: PointFrame, size: ImageSize): ImageSize {
  return frame.seenSize ?? size;
}

/** A point written in the frame, in pixels of the original (a cell's middle for `cells`). */
export function pointToOriginal(point: Point, frame: PointFrame, size: ImageSize): Point {
  const seen = frameSize(frame, size);
  const offset = frame.cells === true ? 0.5 : 0;
  return { x: ((point.x + offset) * size.width) / seen.width, y: ((point.y + offset) * size.height) / seen.height };
}

/**
 * A point of the original as the model writes it in the frame: whole pixels of the seen image,
 * or the cell it lies in (clamped onto the grid). What the point-crop tool's `lookAt` writes.
 */
export function pointInFrame(point: Point, frame: PointFrame, size: ImageSize): Point {
  const seen = frameSize(frame, size);
  const [x, y] = [(point.x * seen.width) / size.width, (point.y * seen.height) / size.height];
  if (frame.cells !== true) return { x: Math.round(x), y: Math.round(y) };
  const cell = (value: number, count: number) => Math.min(count - 1, Math.max(0, Math.floor(value)));
  return { x: cell(x, Math.round(seen.width)), y: cell(y, Math.round(seen.height)) };
}
