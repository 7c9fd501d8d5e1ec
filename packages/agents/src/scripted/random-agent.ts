import { createRng, OUTPUT_FORMATS, type OutputFormat, type Rng } from '@saccade/core';
import { InvalidArgumentError, type Agent, type AgentActOptions, type AgentResponse } from '@saccade/spec';
import { writeFormattedResponse } from './format-response';

/**
 * The actions a random agent draws from, how it formats and separates them, and the seed that makes
 * its answers repeatable.
 */
export interface RandomAgentSettings {
  /** The action names to draw from, e.g. ['Left', 'Down', 'Right', 'Up']. */
  actions: readonly string[];
  /** The VAGEN format of the response (default 'free_think'). */
  format?: OutputFormat;
  /** Most actions per response (default 3); each response has 1 to maxActions. */
  maxActions?: number;
  /** Separator between actions (default ','). */
  separator?: string;
  /** Seed of the draws (default 0): the same seed gives the same responses in the same order. */
  seed?: number | string;
  id?: string;
}

/** Throws InvalidArgumentError naming the first of the actions, format and action cap that is not what a random agent needs. */
export function checkRandomAgentSettings(actions: readonly string[], format: OutputFormat, maxActions: number): void {
  if (!Array.isArray(actions) || actions.length === 0 || !actions.every((action) => typeof action === 'string' && action.length > 0)) {
    throw new InvalidArgumentError({ argument: 'actions', expected: 'a non-empty array of non-empty strings', value: actions });
  }
  if (!OUTPUT_FORMATS.includes(format)) throw new InvalidArgumentError({ argument: 'format', expected: OUTPUT_FORMATS.join(' | '), value: format });
  if (!(Number.isSafeInteger(maxActions) && maxActions >= 1)) {
    throw new InvalidArgumentError({ argument: 'maxActions', expected: 'an integer ≥ 1', value: maxActions });
  }
}

/** 1 to `maxActions` actions drawn with replacement: the count first, then each action. */
export function drawActions(rng: Rng, actions: readonly string[], maxActions: number): string[] {
  const count = rng.int(1, maxActions);
  return Array.from({ length: count }, () => rng.pick(actions));
}

/**
 * An agent that answers with 1 to `maxActions` random actions in a well-formed response: the
 * baseline every trained policy must beat, and a format-valid load for env tests.
 *
 * @example
 * const agent = createRandomAgent({ actions: ['Left', 'Down', 'Right', 'Up'], format: 'free_think', seed: 1 });
 * // "<think>I pick my next moves.</think><answer>Down, Left</answer>"
 */
export function createRandomAgent({ actions, format = 'free_think', maxActions = 3, separator = ',', seed = 0, id = 'random' }: RandomAgentSettings): Agent {
  checkRandomAgentSettings(actions, format, maxActions);
  const rng = createRng(seed);
  return {
    specificationVersion: 'v1',
    id,
    async act({ n = 1, signal }: AgentActOptions): Promise<AgentResponse> {
      signal?.throwIfAborted();
      const outputs = Array.from({ length: n }, () => {
        const chosen = drawActions(rng, actions, maxActions);
        const text = writeFormattedResponse(format, chosen.join(`${separator} `), { think: `I try ${chosen.join(' then ')}.` });
        return { text, finishReason: 'stop' as const };
      });
      return { outputs };
    },
  };
}
