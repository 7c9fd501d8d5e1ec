import { choiceLetter } from '../checkers/choices';
import { formatTemplate, type OutputFormat } from '../formats/output-format';
import { IMAGE_PLACEHOLDER } from '@saccade/spec';
import type { AnswerType, VisionQATask } from './vision-qa-task';

/** How the env reads answers: VISTA-Gym's lenient reading, or one of VAGEN's strict formats. */
export type AnswerFormat = 'final-answer' | OutputFormat;

const ANSWER_HINTS: Record<AnswerType, string> = {
  'multiple-choice': 'Answer with the letter of the correct option.',
  'yes-no': 'Answer yes or no.',
  number: 'Answer with a number.',
  text: 'Answer with a word or a short phrase.',
  list: 'Answer with the items, separated by commas.',
  point: 'Answer with the point (x, y) in pixels of the image.',
  box: 'Answer with the box [x1, y1, x2, y2] in pixels of the image.',
};

/** Where the final answer goes, for prompts and feedback. */
export function formatInstruction(format: AnswerFormat): string {
  return format === 'final-answer'
    ? 'Put your final answer, and nothing else, inside <answer>…</answer>.'
    : `Respond exactly in the format ${formatTemplate(format)}, with only your final answer inside <answer>…</answer>.`;
}

/** The vision-QA env's system prompt: look, reason, then answer in the given format. */
export function vqaSystemPrompt(format: AnswerFormat): string {
  return [
    'You answer questions about images. Look carefully at every image, reason step by step, then give your final answer.',
    formatInstruction(format),
  ].join('\n');
}

/**
 * The first observation's text: one `<image>` per image (the question's own placeholders when it
 * has one per image, as LLaVA-style questions do), the question, the options, what to answer.
 */
export function taskPrompt(task: VisionQATask, format: AnswerFormat): string {
  const own = task.question.split(IMAGE_PLACEHOLDER).length - 1;
  const body =
    own === task.images.length
      ? task.question
      : [...task.images.map(() => IMAGE_PLACEHOLDER), task.question.replaceAll(IMAGE_PLACEHOLDER, '').trim()].join('\n');
  const lines = [body];
  if (task.choices !== undefined) lines.push('Choices:', ...task.choices.map((choice, index) => `(${choiceLetter(index)}) ${choice.replaceAll(IMAGE_PLACEHOLDER, '')}`));
  lines.push(ANSWER_HINTS[task.answerType], formatInstruction(format));
  return lines.join('\n');
}
