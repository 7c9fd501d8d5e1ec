import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { VisionQATask } from '@saccade/core';
import { encodePng } from '@saccade/image';
import type { ImageData } from '@saccade/spec';

/** A white 800 × 600 image with a 12 × 12 square of `rgb` whose top-left corner is (x, y). */
export async function squareScene(x: number, y: number, rgb: [number, number, number], width = 800, height = 600): Promise<ImageData> {
  const data = new Uint8Array(width * height * 3).fill(255);
  for (let dy = 0; dy < 12; dy++) for (let dx = 0; dx < 12; dx++) data.set(rgb, ((y + dy) * width + x + dx) * 3);
  const image = await encodePng({ data, width, height, channels: 3 });
  return { data: image.data, mediaType: 'image/png', width, height };
}

/** A V*-like task: the colour of a small square, four options, the square's box in metadata. */
export async function squareTask(id: string, x: number, y: number, colour: 'red' | 'green' | 'blue' = 'green'): Promise<VisionQATask> {
  const rgb: Record<string, [number, number, number]> = { red: [220, 0, 0], green: [0, 170, 0], blue: [0, 0, 220] };
  return {
    id,
    dataset: 'V*Bench',
    taskFamily: 'visual-search',
    images: [await squareScene(x, y, rgb[colour]!)],
    question: 'What colour is the small square?',
    choices: ['red', 'green', 'blue', 'yellow'],
    answer: colour,
    answerType: 'multiple-choice',
    metadata: { targetBox: [x, y, x + 12, y + 12], target: { shape: 'square' } },
  };
}

/** A folder with a ScreenSpot-like task file: click the square (answer box in pixels). */
export async function screenSpotFile(): Promise<{ folder: string; file: string }> {
  const folder = mkdtempSync(join(tmpdir(), 'saccade-grounding-'));
  writeFileSync(join(folder, 'screen.png'), (await squareScene(500, 100, [0, 0, 220])).data);
  const file = join(folder, 'screenspot.jsonl');
  const line = { id: 'click-1', dataset: 'ScreenSpot', taskFamily: 'grounding', images: ['screen.png'], question: 'Click the blue square.', answer: [500, 100, 512, 112], answerType: 'point' };
  writeFileSync(file, `${JSON.stringify(line)}\n`);
  return { folder, file };
}
