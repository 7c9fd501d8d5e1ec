import { choiceLetter } from '../checkers/choices';
import type { VisionQATask } from '../tasks/vision-qa-task';
import { IMAGE_PLACEHOLDER } from '@saccade/spec';
import type { PointFrame } from './point-frame';

/** ViGoRL's backtracking sentence between a wrong attempt and a right one in linearised chains. */
export const BACKTRACK_MESSAGE = "Wait, this seems off. Let's try something else.";

/** What the model is made to say when the crop budget is spent: the answer follows (ViGoRL's forced final answer). */
export const FORCED_ANSWER_PREFIX = "<think> Based on all the information I've gathered, I'll now provide my final answer. </think>\n<answer>";

/** The thinking of a last turn that has nothing left to say. */
export const FINAL_THINK = "Based on all the information I've gathered, I'll now provide my final answer.";

const ANSWER_HINTS: Partial<Record<VisionQATask['answerType'], string>> = {
  'multiple-choice': 'Answer with the letter of the correct option.',
  'yes-no': 'Answer yes or no.',
  number: 'Answer with a number.',
  point: 'Answer with the point (x, y) in pixels of the image.',
  box: 'Answer with the box [x1, y1, x2, y2] in pixels of the image.',
};

/** The first user turn: the image, the question, the options, what to answer. */
export function groundedTaskPrompt(task: Pick<VisionQATask, 'question' | 'choices' | 'answerType'>): string {
  const lines = [IMAGE_PLACEHOLDER, task.question.replaceAll(IMAGE_PLACEHOLDER, '').trim()];
  if (task.choices !== undefined) lines.push('Choices:', ...task.choices.map((choice, index) => `(${choiceLetter(index)}) ${choice.replaceAll(IMAGE_PLACEHOLDER, '')}`));
  lines.push(ANSWER_HINTS[task.answerType] ?? 'Answer with a word or a short phrase.');
  return lines.join('\n');
}

/** What a point's numbers are, in the frame the model writes points in (ViGoRL's: pixels of the original). */
function pointUnits({ seenSize, cells }: PointFrame, image: string): string {
  if (seenSize === undefined) return `integer pixels of ${image}`;
  const size = `${seenSize.width} × ${seenSize.height}`;
  return cells === true ? `a cell (column, row) of the ${size} grid over ${image}, counted from 0` : `integer pixels of ${image} as you see it, ${size}`;
}

/** Single-turn grounded reasoning (ViGoRL): one step per line, each anchored to a point, then the answer. */
export function singleTurnSystemPrompt({ frame = {} }: { frame?: PointFrame } = {}): string {
  return [
    'You answer questions about an image by reasoning in steps that each look at one place in the image.',
    `Write your steps inside <think>…</think>, one step per line, and name the place each step looks at as a point (x, y) in ${pointUnits(frame, 'the image')} (x to the right, y down from the top-left corner).`,
    'Then give only your final answer inside <answer>…</answer>.',
  ].join('\n');
}

/** Multi-turn grounded search (ViGoRL): think about one region, then crop around a point or answer. */
export function multiTurnSystemPrompt({ maxCrops, toolName = 'search_coordinate', frame = {} }: { maxCrops: number; toolName?: string; frame?: PointFrame }): string {
  return [
    'You answer questions about an image by looking closer at one region at a time.',
    'In each turn, first think about one region of the image inside <think>…</think>. Then either ask for a closer look with',
    `<tool_call>\n{"name": "${toolName}", "arguments": {"coordinate": [x, y]}}\n</tool_call>`,
    `where (x, y) are ${pointUnits(frame, 'the original image')}, and you receive the crop around that point; or, once you are sure, give only your final answer inside <answer>…</answer>.`,
    `You may look closer at most ${maxCrops} time${maxCrops === 1 ? '' : 's'}; never look at the same point twice.`,
  ].join('\n');
}

/** The observation that brings a crop back (ViGoRL's wording; with the dot sentence for the web preset). */
export function cropObservation({ dot }: { dot: boolean }): string {
  return `<observation>\nHere is the crop of the image centered on the coordinate${dot ? ', with a red dot at the coordinate location' : ''}:\n${IMAGE_PLACEHOLDER}\n</observation>`;
}

/** Said after the crop that spends the budget. */
export function budgetSpentNote(maxCrops: number): string {
  return `You have used all ${maxCrops} crop${maxCrops === 1 ? '' : 's'}; give your final answer now.`;
}
