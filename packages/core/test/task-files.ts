import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// One-pixel PNGs (red, blue): task files only name images; readers check that they exist, never decode them.
const RED_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAADElEQVQImWP4z8AAAAMBAQCc479ZAAAAAElFTkSuQmCC';
const BLUE_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAADElEQVQImWNgYPgPAAEDAQBdlO9aAAAAAElFTkSuQmCC';

/** A fresh folder with `images/red.png` and `images/blue.png`. */
export function makeTaskFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'saccade-tasks-'));
  mkdirSync(join(folder, 'images'));
  writeFileSync(join(folder, 'images', 'red.png'), Buffer.from(RED_PNG, 'base64'));
  writeFileSync(join(folder, 'images', 'blue.png'), Buffer.from(BLUE_PNG, 'base64'));
  return folder;
}

/** Tasks of several answer types, with image paths relative to the task folder. */
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

/** Writes lines (objects become JSON) to `tasks.jsonl` in the folder and returns its path. */
export function writeLines(folder: string, lines: readonly (object | string)[], name = 'tasks.jsonl'): string {
  const file = join(folder, name);
  writeFileSync(file, lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n') + '\n');
  return file;
}
