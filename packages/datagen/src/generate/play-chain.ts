import { createReplayAgent } from '@saccade/agents';
import type { ImageSize } from '@saccade/core';
import { InvalidStateError, type Env } from '@saccade/spec';
import { chainActions } from '../search/chain-actions';
import type { ReasoningChain } from '../search/chain-text';
import { playGroundedEpisode, type PlayedGroundedEpisode } from './play-grounded-episode';

/** Which task of the env the chain is played on, the image its points lie on and the env's crop budget. */
export interface PlayChainOptions {
  taskIndex: number;
  imageSize: ImageSize;
  /** The env's `maxCrops` (default 4). */
  maxCrops?: number;
  signal?: AbortSignal;
}

/**
 * Plays a linearised chain in a multi-turn grounded env (made from the env registry): its turns
 * (`chainActions`) are a replay agent's actions, played through the rollout manager like any
 * episode, so the crops, observations and the forced final answer are the env's own. The played
 * chat (`messages`, `images`) is the multi-turn SFT record. Throws InvalidStateError when a crop the
 * chain calls for did not come back (the env refused it).
 */
export async function playChain(env: Env, chain: ReasoningChain, { taskIndex, imageSize, maxCrops = 4, signal }: PlayChainOptions): Promise<PlayedGroundedEpisode> {
  const actions = chainActions(chain, { imageSize, maxCrops });
  const played = await playGroundedEpisode(env, createReplayAgent({ actions, id: 'chain-replay' }), { taskIndex, ...(signal ? { signal } : {}) });
  const crops = actions.length - 1;
  if (played.responses.length !== actions.length || played.images.length !== crops + 1) {
    throw new InvalidStateError({
      operation: 'playChain()',
      expected: `${actions.length} turns with ${crops} crop${crops === 1 ? '' : 's'}`,
      actual: `${played.responses.length} turns with ${played.images.length - 1} (the env said: ${JSON.stringify(played.final.observation.text.slice(0, 200))})`,
    });
  }
  return played;
}
