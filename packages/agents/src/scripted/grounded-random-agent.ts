import { createRng, formatTemplate, parseFormattedResponse } from '@saccade/core';
import { InvalidArgumentError, InvalidStateError, type Agent, type AgentActOptions, type AgentResponse, type Env } from '@saccade/spec';
import { OracleNotFoundError } from '../errors/oracle-not-found-error';
import { writeFormattedResponse } from './format-response';
import { checkRandomAgentSettings, drawActions, type RandomAgentSettings } from './random-agent';
import { envChain, findOracle } from './oracle-agent';

/**
 * What a grounded random agent plays: the env it describes, and a random agent's settings (its
 * `format` defaults to 'grounding' here and must have an `<observation>` and no `<prediction>`).
 */
export interface GroundedRandomAgentSettings extends RandomAgentSettings {
  /** The env the agent plays; its (or a wrapped env's) `oracleResponse()` gives the true observation. */
  env: Env;
}

/**
 * An agent that says truly what it sees and then acts at random: the `<observation>` of the env's
 * oracle response (the state as the env describes it), random actions in `<answer>`. SFT on its
 * episodes gives a start that perceives and knows the format but has no policy — what VAGEN's base
 * model brings (it can describe the board; it does not know how to cross it). The oracle's
 * reasoning and plan are never copied. A format with a `<prediction>` is refused: the state after a
 * random move is not the oracle's to describe.
 *
 * @example
 * const env = makeEnv('saccade/FrozenLake-v1', { format: 'grounding', observation: 'vision' });
 * const agent = createGroundedRandomAgent({ env, actions: ['Left', 'Down', 'Right', 'Up'], maxActions: 1, seed: 1 });
 * // "<think><observation>The player is at row 1, column 1. …</observation><reasoning>I try Down.</reasoning></think><answer>Down</answer>"
 */
export function createGroundedRandomAgent({ env, actions, format = 'grounding', maxActions = 3, separator = ',', seed = 0, id = 'random-grounded' }: GroundedRandomAgentSettings): Agent {
  if (typeof env !== 'object' || env === null || typeof env.step !== 'function') throw new InvalidArgumentError({ argument: 'env', expected: 'an Env', value: env });
  checkRandomAgentSettings(actions, format, maxActions);
  const template = formatTemplate(format);
  if (!template.includes('<observation>') || template.includes('<prediction>')) {
    throw new InvalidArgumentError({ argument: 'format', expected: 'a format with an <observation> and no <prediction> (grounding)', value: format });
  }
  const oracle = findOracle(env);
  if (oracle === undefined) throw new OracleNotFoundError({ envId: env.id, chain: envChain(env).map((link) => link.constructor?.name ?? typeof link) });
  const rng = createRng(seed);
  return {
    specificationVersion: 'v1',
    id,
    async act({ n = 1, signal }: AgentActOptions): Promise<AgentResponse> {
      signal?.throwIfAborted();
      const truth = await oracle.oracleResponse();
      const parsed = typeof truth === 'string' ? parseFormattedResponse(truth, { format, separator: null }) : undefined;
      if (parsed?.observation === undefined || parsed.observation.length === 0) {
        throw new InvalidStateError({
          operation: 'createGroundedRandomAgent: act()',
          expected: `the env's oracle response in the ${format} format, with an <observation>`,
          actual: typeof truth === 'string' ? `"${truth.slice(0, 120)}"${parsed?.error ? ` (${parsed.error})` : ''}` : typeof truth,
        });
      }
      const observation = parsed.observation;
      const outputs = Array.from({ length: n }, () => {
        const chosen = drawActions(rng, actions, maxActions);
        const text = writeFormattedResponse(format, chosen.join(`${separator} `), { observation, reasoning: `I try ${chosen.join(' then ')}.` });
        return { text, finishReason: 'stop' as const };
      });
      return { outputs };
    },
  };
}
