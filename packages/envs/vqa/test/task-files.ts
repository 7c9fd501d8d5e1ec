import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodePng } from '@saccade/image';

/** A solid-colour PNG of the given size, as file bytes. */
export async function solidPng(width: number, height: number, rgb: [number, number, number]): Promise<Uint8Array> {
  const data = new Uint8Array(width * height * 3);
  for (let index = 0; index < width * height; index++) data.set(rgb, index * 3);
  return (await encodePng({ data, width, height, channels: 3 })).data;
}

/** A fresh folder with `images/red.png` (8×6) and `images/blue.png` (4×4). */
export async function makeTaskFolder(): Promise<string> {
  const folder = mkdtempSync(join(tmpdir(), 'saccade-vqa-'));
  mkdirSync(join(folder, 'images'));
  writeFileSync(join(folder, 'images', 'red.png'), await solidPng(8, 6, [255, 0, 0]));
  writeFileSync(join(folder, 'images', 'blue.png'), await solidPng(4, 4, [0, 0, 255]));
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
