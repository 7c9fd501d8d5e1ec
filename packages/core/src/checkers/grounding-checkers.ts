import { InvalidArgumentError } from '@saccade/spec';
import { firstAnswer, right, wrong, type AnswerChecker, type AnswerTarget, checkedAnswerChecker } from './answer-checker';

/** `[x1, y1, x2, y2]` in pixels. */
export type BoundingBox = readonly [number, number, number, number];

const NUMBER = String.raw`-?\d+(?:\.\d+)?`;
// The first 2 or 4 numbers in brackets or bare, separated by commas: "(120, 45)", "[1,2,3,4]".
const COORDINATES = new RegExp(`[([]?\\s*(${NUMBER})\\s*,\\s*(${NUMBER})(?:\\s*,\\s*(${NUMBER})\\s*,\\s*(${NUMBER}))?\\s*[)\\]]?`);

/** The numbers of the first `(x, y)` or `[x1, y1, x2, y2]` in a text, or undefined. */
function coordinates(text: string): number[] | undefined {
  const match = COORDINATES.exec(String(text).slice(0, 10_000));
  if (!match) return undefined;
  return match.slice(1).filter((part): part is string => part !== undefined).map(Number);
}

/** A box from `[x1, y1, x2, y2]` (array or text), corners put in order; undefined otherwise. */
export function parseBox(value: unknown): BoundingBox | undefined {
  const numbers = Array.isArray(value) ? value.map(Number) : typeof value === 'string' ? coordinates(value) : undefined;
  if (numbers === undefined || numbers.length !== 4 || !numbers.every(Number.isFinite)) return undefined;
  const [x1, y1, x2, y2] = numbers as [number, number, number, number];
  return [Math.min(x1, x2), Math.min(y1, y2), Math.max(x1, x2), Math.max(y1, y2)];
}

/** A point from `(x, y)` / `[x, y]`; a box `[x1, y1, x2, y2]` stands for its centre. */
export function parsePoint(text: string): { x: number; y: number } | undefined {
  const numbers = coordinates(text);
  if (numbers === undefined) return undefined;
  if (numbers.length === 4) return { x: (numbers[0]! + numbers[2]!) / 2, y: (numbers[1]! + numbers[3]!) / 2 };
  return { x: numbers[0]!, y: numbers[1]! };
}

/** The point lies in the box, borders included (ScreenSpot's rule). */
export function pointInBox(point: { x: number; y: number }, box: BoundingBox): boolean {
  const [x1, y1, x2, y2] = box;
  return point.x >= Math.min(x1, x2) && point.x <= Math.max(x1, x2) && point.y >= Math.min(y1, y2) && point.y <= Math.max(y1, y2);
}

/** The size of an image as a model saw it, in pixels. */
export interface ImageSize {
  width: number;
  height: number;
}

/** The point lies on the image: 0 ≤ x < width and 0 ≤ y < height (pixels are cells, so `width` itself is off the image). */
export function pointInImage(point: { x: number; y: number }, { width, height }: ImageSize): boolean {
  return point.x >= 0 && point.y >= 0 && point.x < width && point.y < height;
}

/** The distance in pixels from a point to a box `[x1, y1, x2, y2]` (0 inside it, borders included). */
export function distanceToBox(point: { x: number; y: number }, [x1, y1, x2, y2]: BoundingBox): number {
  const dx = Math.max(x1 - point.x, 0, point.x - x2);
  const dy = Math.max(y1 - point.y, 0, point.y - y2);
  return Math.hypot(dx, dy);
}

/** Intersection over union of two boxes; 0 when they do not overlap or both are empty. */
export function boxIoU(a: BoundingBox, b: BoundingBox): number {
  const [ax1, ay1, ax2, ay2] = parseBox(a)!;
  const [bx1, by1, bx2, by2] = parseBox(b)!;
  const intersection = Math.max(0, Math.min(ax2, bx2) - Math.max(ax1, bx1)) * Math.max(0, Math.min(ay2, by2) - Math.max(ay1, by1));
  const union = (ax2 - ax1) * (ay2 - ay1) + (bx2 - bx1) * (by2 - by1) - intersection;
  return union > 0 ? intersection / union : 0;
}

function targetBox(target: AnswerTarget): BoundingBox {
  const box = parseBox(Array.isArray(target.answer) ? target.answer : firstAnswer(target.answer));
  if (box === undefined) {
    throw new InvalidArgumentError({ argument: 'target.answer', expected: 'a box [x1, y1, x2, y2] of four numbers', value: target.answer });
  }
  return box;
}

/** A click: the predicted point `(x, y)` (or a box's centre) inside the reference box. */
export const checkPointInBox: AnswerChecker = checkedAnswerChecker((prediction, target) => {
  const box = targetBox(target);
  const point = parsePoint(prediction);
  if (point === undefined) return wrong('no point (x, y) in the prediction');
  return pointInBox(point, box) ? right(`(${point.x}, ${point.y}) is inside the box`) : wrong(`(${point.x}, ${point.y}) is outside the box`);
});

/** A predicted box against the reference box: the score is the IoU, right when it reaches `threshold` (0.5). */
export function createBoxIoUChecker({ threshold = 0.5 }: { threshold?: number } = {}): AnswerChecker {
  return checkedAnswerChecker((prediction, target) => {
    const expected = targetBox(target);
    const predicted = parseBox(prediction);
    if (predicted === undefined) return wrong('no box [x1, y1, x2, y2] in the prediction');
    const iou = boxIoU(predicted, expected);
    const detail = `IoU ${Math.round(iou * 1e4) / 1e4} (needs ${threshold})`;
    return iou >= threshold ? right(detail, iou) : wrong(detail, iou);
  });
}

/** Box IoU ≥ 0.5. */
export const checkBoxIoU: AnswerChecker = createBoxIoUChecker();
