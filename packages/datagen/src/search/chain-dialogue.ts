import { parsePoints, runTool, type Point } from '@saccade/core';
import type { ImageData, Tool } from '@saccade/spec';
import { budgetSpentNote, cropObservation, FINAL_THINK, FORCED_ANSWER_PREFIX, pointInImage, searchCoordinateCall, type ImageSize } from '@saccade/env-grounded';
import type { ReasoningChain } from './chain-text';

/** A multi-turn dialogue after the first user turn: assistant and user messages, and the crops in order. */
export interface ChainDialogue {
  messages: { role: 'assistant' | 'user'; content: string }[];
  /** The crop images, one per user message, in order. */
  crops: ImageData[];
  /** The points cropped. */
  points: Point[];
}

/**
 * The image, its size and the point-crop tool chainToDialogue replays a chain's crops with, whether
 * crops mention the red dot, and the crop budget.
 */
export interface ChainDialogueOptions {
  image: ImageData;
  imageSize: ImageSize;
  /** The point-crop tool (a preset's `search_coordinate`). */
  cropTool: Tool;
  /** The crop observation mentions the red dot. */
  dot: boolean;
  /** Crops at most (default 4); after the last one the answer is forced, as the env does. */
  maxCrops?: number;
}

/**
 * Turns a single-turn chain into ViGoRL's multi-turn form: the steps are read in order and each
 * step with a new point on the image (integer pixels, not cropped before) closes a turn,
 * `<think>{the steps since the last turn}</think><tool_call>search_coordinate [x, y]</tool_call>`,
 * answered by the crop in ViGoRL's observation message. Steps without a new point (the
 * backtracking sentence among them) join the next turn's thinking. The last turn answers; after
 * `maxCrops` crops it is the forced final answer.
 */
export async function chainToDialogue(chain: ReasoningChain, options: ChainDialogueOptions): Promise<ChainDialogue> {
  const { image, imageSize, cropTool, dot, maxCrops = 4 } = options;
  const dialogue: ChainDialogue = { messages: [], crops: [], points: [] };
  const cropped = new Set<string>();
  let pending: string[] = [];
  for (const step of chain.steps) {
    pending.push(step);
    if (dialogue.crops.length >= maxCrops) continue;
    const point = parsePoints(step).find((candidate) => pointInImage(candidate, imageSize) && !cropped.has(`${candidate.x},${candidate.y}`));
    if (point === undefined) continue;
    const run = await runTool(cropTool, { coordinate: [point.x, point.y] }, { images: [image], timeoutMs: 30_000 });
    const crop = run.ok ? run.result.images?.[0] : undefined;
    if (crop === undefined) continue;
    cropped.add(`${point.x},${point.y}`);
    dialogue.messages.push({ role: 'assistant', content: `<think>${pending.join(' ')}</think>\n${searchCoordinateCall(point)}` });
    const spent = dialogue.crops.length + 1 >= maxCrops;
    dialogue.messages.push({ role: 'user', content: `${cropObservation({ dot })}${spent ? `\n${budgetSpentNote(maxCrops)}` : ''}` });
    dialogue.crops.push(crop);
    dialogue.points.push(point);
    pending = [];
  }
  const final =
    dialogue.crops.length >= maxCrops && maxCrops > 0
      ? `${FORCED_ANSWER_PREFIX}${chain.answer}</answer>`
      : `<think>${pending.length > 0 ? pending.join(' ') : FINAL_THINK}</think>\n<answer>${chain.answer}</answer>`;
  dialogue.messages.push({ role: 'assistant', content: final });
  return dialogue;
}
