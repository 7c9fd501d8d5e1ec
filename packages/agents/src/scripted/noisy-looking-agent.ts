import { createRng, findActionSpace, formatAnswer, messageText, sampleAnswer } from '@saccade/core';
import { recordedImageSize } from '@saccade/image';
import { InvalidArgumentError, InvalidStateError, type Agent, type AgentActOptions, type AgentResponse, type Env, type ImageData, type Message, type Tool } from '@saccade/spec';
import { OracleNotFoundError } from '../errors/oracle-not-found-error';
import { envChain, findOracle } from './oracle-agent';

/** What a noisy looking agent plays and how often its looks and answers are right. */
export interface NoisyLookingAgentSettings {
  /** The env it plays: a tool-use wrapper with a looking oracle (`oracleResponse`) and a tool that can `lookAt` a box. */
  env: Env;
  /** Chance that a look goes to the target (the oracle's look) rather than to a random point of the image (default 0.25). */
  hitProbability?: number;
  /** Chance of the right answer once a look has shown the target (default 0.95); otherwise it guesses. */
  accuracyWhenSeen?: number;
  /** Looks it makes without seeing the target before it guesses (default 3). */
  maxLooks?: number;
  /** Seed of its draws (default 0). */
  seed?: number | string;
  id?: string;
}

const probability = (argument: string, value: number): number => {
  if (!(typeof value === 'number' && value >= 0 && value <= 1)) throw new InvalidArgumentError({ argument, expected: 'a probability from 0 to 1', value });
  return value;
};

/** The first image of the chat: the env's original, which looks are made on. */
function firstImage(messages: readonly Message[]): ImageData | undefined {
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const part of message.content) if (part.type === 'image') return part.image;
  }
  return undefined;
}

/** The tools of the outermost env in the chain that offers some (the tool-use wrapper's `tools`). */
function lookingTool(env: Env, name: string): Tool | undefined {
  for (const link of envChain(env)) {
    const tools = (link as { tools?: unknown }).tools;
    if (tools instanceof Map) return (tools as ReadonlyMap<string, Tool>).get(name);
  }
  return undefined;
}

/**
 * A scripted searcher that finds the target only by chance, like a weak VLM: a stand-in teacher for
 * best-of-n chains (keep the episodes the env scored a success), as `saccade data generate`'s noisy
 * grounding agent is for ViGoRL's format. While no look has shown the target (the env's looking
 * oracle still asks for a call) each look goes to the target with `hitProbability` (the oracle's
 * call) and otherwise to a random point of the original image (the same tool's `lookAt` of that
 * point, so the call is valid in the tool's frame); once a look has shown it, it answers right with
 * `accuracyWhenSeen`; after `maxLooks` looks without it, it guesses one of the env's answers. It
 * knows where the target is only through the oracle, and its chains are what it played: a call
 * that missed stays in the chain. Its looks at the target are the oracle's next look, so an env
 * whose oracle searches (VisualSearch's `oracleDecoys`) makes it look at those decoys instead: play
 * it with a looking oracle that goes straight to the target. Deterministic for a seed and a call order.
 *
 * @example
 * const agent = createNoisyLookingAgent({ env, hitProbability: 0.25, seed: 'demonstration:10000' });
 */
export function createNoisyLookingAgent({ env, hitProbability = 0.25, accuracyWhenSeen = 0.95, maxLooks = 3, seed = 0, id = 'noisy-looking' }: NoisyLookingAgentSettings): Agent {
  if (typeof env !== 'object' || env === null || typeof env.step !== 'function') throw new InvalidArgumentError({ argument: 'env', expected: 'an Env', value: env });
  probability('hitProbability', hitProbability);
  probability('accuracyWhenSeen', accuracyWhenSeen);
  if (!Number.isSafeInteger(maxLooks) || maxLooks < 0) throw new InvalidArgumentError({ argument: 'maxLooks', expected: 'an integer ≥ 0', value: maxLooks });
  const oracle = findOracle(env);
  if (oracle === undefined) throw new OracleNotFoundError({ envId: env.id, chain: envChain(env).map((link) => link.constructor?.name ?? typeof link) });
  const rng = createRng(seed);

  const guess = (): string => {
    const space = findActionSpace(env);
    if (space === undefined) throw new InvalidStateError({ operation: `${id}: act()`, expected: 'an env that declares its answers (Env.actionSpace)', actual: `${env.id} declares none` });
    const format = space.kind === 'tool-calls' ? space.answer.format : space.format;
    return formatAnswer(format, sampleAnswer(space, rng));
  };

  /** The oracle's call with its arguments replaced by the same tool's look at a random point of the original. */
  const randomLook = async (call: string, messages: readonly Message[]): Promise<string> => {
    const open = call.indexOf('<tool_call>');
    const close = call.indexOf('</tool_call>', open);
    const parsed = JSON.parse(call.slice(open + '<tool_call>'.length, close)) as { name: string; arguments: unknown };
    const tool = lookingTool(env, parsed.name);
    const image = firstImage(messages);
    if (tool?.lookAt === undefined || image === undefined) {
      throw new InvalidStateError({ operation: `${id}: act()`, expected: `the tool "${parsed.name}" with lookAt and the chat's first image`, actual: tool === undefined ? 'no such tool' : 'a chat without an image' });
    }
    const { width, height } = await recordedImageSize(image);
    const [x, y] = [rng.int(0, width - 1), rng.int(0, height - 1)];
    const args = await tool.lookAt([x, y, x + 1, y + 1], { images: [image] });
    return `${call.slice(0, open)}<tool_call>${JSON.stringify({ name: parsed.name, arguments: args })}</tool_call>${call.slice(close + '</tool_call>'.length)}`;
  };

  return {
    specificationVersion: 'v1',
    id,
    async act({ messages, n = 1, signal }: AgentActOptions): Promise<AgentResponse> {
      signal?.throwIfAborted();
      const next = await oracle.oracleResponse();
      if (typeof next !== 'string') throw new InvalidArgumentError({ argument: 'oracleResponse()', expected: 'a string', value: next });
      const looks = messages.filter((message) => message.role === 'assistant' && messageText(message).includes('<tool_call>')).length;
      const outputs = [];
      for (let index = 0; index < n; index++) {
        let text: string;
        if (next.includes('<tool_call>')) {
          // The target not seen yet: look at it by chance, elsewhere otherwise; guess once the looks are spent.
          text = looks >= maxLooks ? guess() : rng.next() < hitProbability ? next : await randomLook(next, messages);
        } else {
          text = rng.next() < accuracyWhenSeen ? next : guess();
        }
        outputs.push({ text, finishReason: 'stop' as const });
      }
      return { outputs };
    },
  };
}
