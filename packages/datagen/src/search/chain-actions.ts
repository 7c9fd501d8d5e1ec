import { FINAL_THINK, FORCED_ANSWER_PREFIX, parsePoints, pointInImage, searchCoordinateCall, type ImageSize } from '@saccade/core';
import type { ReasoningChain } from './chain-text';

/** The image a chain's points lie on and the crop budget of the env it is played in. */
export interface ChainActionsOptions {
  imageSize: ImageSize;
  /** Crops at most (default 4, the env's `maxCrops`); after the last one the answer is the forced one. */
  maxCrops?: number;
}

/**
 * A single-turn chain as ViGoRL's multi-turn turns, to be played in the grounded env (`playChain`):
 * the steps are read in order and each step with a new point on the image (integer pixels, not
 * cropped before) closes a turn, `<think>{the steps since the last turn}</think>` and a
 * `search_coordinate` call at the point. Steps without a new point (the backtracking sentence among
 * them) join the next turn's thinking. The last turn answers; after `maxCrops` crops it is the
 * forced final answer, which the env asks for (`info.forcedPrefix`).
 */
export function chainActions(chain: ReasoningChain, { imageSize, maxCrops = 4 }: ChainActionsOptions): string[] {
  const actions: string[] = [];
  const cropped = new Set<string>();
  let pending: string[] = [];
  for (const step of chain.steps) {
    pending.push(step);
    if (cropped.size >= maxCrops) continue;
    const point = parsePoints(step).find((candidate) => pointInImage(candidate, imageSize) && !cropped.has(`${candidate.x},${candidate.y}`));
    if (point === undefined) continue;
    cropped.add(`${point.x},${point.y}`);
    actions.push(`<think>${pending.join(' ')}</think>\n${searchCoordinateCall(point)}`);
    pending = [];
  }
  actions.push(
    cropped.size >= maxCrops && maxCrops > 0
      ? `${FORCED_ANSWER_PREFIX}${chain.answer}</answer>`
      : `<think>${pending.length > 0 ? pending.join(' ') : FINAL_THINK}</think>\n<answer>${chain.answer}</answer>`,
  );
  return actions;
}
