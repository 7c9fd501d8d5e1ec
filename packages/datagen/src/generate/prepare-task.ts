import {
  findAnswerChecker,
  getAnswerChecker,
  groundedTaskPrompt,
  multiTurnSystemPrompt,
  presetForTask,
  resolveCropSettings,
  singleTurnSystemPrompt,
  type AnswerChecker,
  type CropSettings,
  type ImageSize,
  type PointCropPresetName,
  type VisionQATask,
} from '@saccade/core';
import { loadImage, recordedImageSize } from '@saccade/image';
import { InvalidArgumentError, type ImageData, type Message } from '@saccade/spec';

/** A task ready to search: its image loaded, its checker and its crop settings picked. */
export interface PreparedTask {
  task: VisionQATask;
  image: ImageData;
  size: ImageSize;
  checker: AnswerChecker;
  /** The crop of its preset (the multi-turn env crops with it when a chain is played). */
  crop: CropSettings;
}

/** The crop preset and settings prepareTask resolves, and the answer checker it picks. */
export interface PrepareTaskOptions {
  /** The crop preset, or `auto` (default): `web` for clicks, `visual-search` otherwise. */
  preset?: PointCropPresetName | 'auto';
  crop?: Partial<CropSettings>;
  /** A checker for every task (default: the task's dataset, else its answer type). */
  checker?: AnswerChecker;
}

/** Loads a task's image and picks its checker and crop settings. */
export async function prepareTask(task: VisionQATask, { preset = 'auto', crop = {}, checker }: PrepareTaskOptions = {}): Promise<PreparedTask> {
  const source = task.images[0];
  if (source === undefined) throw new InvalidArgumentError({ argument: `task ${task.id}`, expected: 'a task with an image', value: task.images });
  const image: ImageData = typeof source === 'string' ? await loadImage(source) : source;
  const size = await recordedImageSize(image);
  const chosen = preset === 'auto' ? presetForTask(task) : preset;
  return {
    task,
    image,
    size,
    checker: checker ?? findAnswerChecker(task.dataset) ?? getAnswerChecker(task.answerType),
    crop: resolveCropSettings(chosen, crop),
  };
}

/** The single-turn chat of a task as text (the SFT file's form): system prompt and the user turn with its `<image>`. */
export function singleTurnChat(task: VisionQATask): { role: 'system' | 'user'; content: string }[] {
  return [
    { role: 'system', content: singleTurnSystemPrompt() },
    { role: 'user', content: groundedTaskPrompt(task) },
  ];
}

/** The multi-turn chat's opening as text. */
export function multiTurnChat(task: VisionQATask, maxCrops: number): { role: 'system' | 'user'; content: string }[] {
  return [
    { role: 'system', content: multiTurnSystemPrompt({ maxCrops }) },
    { role: 'user', content: groundedTaskPrompt(task) },
  ];
}

/** The single-turn chat as spec messages, the image in place of its placeholder: what the agent is asked. */
export function singleTurnMessages(prepared: PreparedTask): Message[] {
  const system = singleTurnSystemPrompt();
  const [before = '', after = ''] = groundedTaskPrompt(prepared.task).split('<image>');
  const content: Message['content'] = [];
  if (before.length > 0) content.push({ type: 'text', text: before });
  content.push({ type: 'image', image: prepared.image });
  if (after.length > 0) content.push({ type: 'text', text: after });
  return [
    { role: 'system', content: system },
    { role: 'user', content },
  ];
}
