import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TASK_IMAGES } from './sample-images';

/**
 * A fresh temporary folder with `images/red.png` (8×6) and `images/blue.png` (4×4), the images
 * {@link SAMPLE_TASKS} name; their bytes are {@link TASK_IMAGES}. The caller removes it when done.
 *
 * @example
 * const folder = makeTaskFolder();
 * const file = writeJsonLines(folder, SAMPLE_TASKS);
 * const source = new TaskFileSource(file);
 */
export function makeTaskFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'saccade-tasks-'));
  mkdirSync(join(folder, 'images'));
  writeFileSync(join(folder, 'images', 'red.png'), TASK_IMAGES.red.data);
  writeFileSync(join(folder, 'images', 'blue.png'), TASK_IMAGES.blue.data);
  return folder;
}

/**
 * Vision-QA task lines of every common answer type (number, multiple-choice, yes-no, point, text
 * with several accepted answers), as a task file holds them: image paths relative to the folder
 * {@link makeTaskFolder} makes. Spread one and change a field to write a bad line.
 */
export const SAMPLE_TASKS = [
  { id: 'chart-1', dataset: 'ChartQA', taskFamily: 'chart', images: ['images/red.png'], question: 'What is the highest value?', answer: '45', answerType: 'number' },
  {
    id: 'ai2d-1',
    dataset: 'AI2D',
    taskFamily: 'science',
    images: ['images/blue.png'],
    question: 'Which planet is shown?',
    choices: ['Mercury', 'Venus', 'Mars'],
    answer: 'Venus',
    answerType: 'multiple-choice',
    metadata: { answer_letter: 'B', answer_index: 1 },
  },
  { id: 'figure-1', dataset: 'FigureQA', taskFamily: 'chart', images: ['images/red.png', 'images/blue.png'], question: 'Is red the first image?', answer: 1, answerType: 'yes-no' },
  { id: 'screen-1', dataset: 'ScreenSpot', taskFamily: 'grounding', images: ['images/red.png'], question: 'Click the button.', answer: [2, 1, 6, 5], answerType: 'point' },
  { id: 'vizwiz-1', dataset: 'VizWiz', taskFamily: 'science', images: ['images/blue.png'], question: 'What colour is this?', answer: ['blue', 'blue', 'dark blue', 'navy'], answerType: 'text' },
] as const;

/**
 * Writes `lines` to `<folder>/<name>` (default `tasks.jsonl`), one a line: objects as JSON, strings
 * as they are (to write a blank or broken line on purpose). Returns the file's path.
 *
 * @example
 * const file = writeJsonLines(folder, [SAMPLE_TASKS[0], 'not json', { ...SAMPLE_TASKS[1], answer: 7 }]);
 */
export function writeJsonLines(folder: string, lines: readonly (object | string)[], name = 'tasks.jsonl'): string {
  const file = join(folder, name);
  writeFileSync(file, lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n') + '\n');
  return file;
}
