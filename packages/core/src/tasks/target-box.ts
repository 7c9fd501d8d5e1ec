import { parseBox, type BoundingBox } from '../checkers/grounding-checkers';
import type { VisionQATask } from './vision-qa-task';

const isBoxLike = (value: unknown): boolean => Array.isArray(value) && value.length === 4 && value.every((part) => typeof part === 'number' && Number.isFinite(part));

/**
 * Where the answer lies in the image, when the task says: the box of a click task's answer
 * (ScreenSpot), else `metadata.targetBox` (the procedural generators), `metadata.bbox` or the first
 * of `metadata.bboxes` / `metadata.target_boxes` (V*Bench's object boxes), as `[x1, y1, x2, y2]`.
 */
export function targetBoxOf(task: Pick<VisionQATask, 'answer' | 'answerType' | 'metadata'>): BoundingBox | undefined {
  if (task.answerType === 'point' || task.answerType === 'box') {
    const box = parseBox(task.answer);
    if (box !== undefined) return box;
  }
  const metadata = task.metadata ?? {};
  for (const name of ['targetBox', 'target_box', 'bbox']) {
    const value = metadata[name];
    if (isBoxLike(value)) return parseBox(value);
  }
  for (const name of ['bboxes', 'target_boxes', 'targetBoxes']) {
    const value = metadata[name];
    if (Array.isArray(value) && isBoxLike(value[0])) return parseBox(value[0]);
  }
  return undefined;
}
