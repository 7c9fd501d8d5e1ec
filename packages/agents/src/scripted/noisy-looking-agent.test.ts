import { buildMessages, defineTool, makeEnv, ToolUseWrapper } from '@saccade/core';
import { registerProceduralEnvs } from '@saccade/env-procedural';
import { registerVqaEnvs } from '@saccade/env-vqa';
import { clipBox, crop } from '@saccade/image';
import type { Agent, Env } from '@saccade/spec';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createNoisyLookingAgent } from './noisy-looking-agent';

beforeAll(() => {
  registerVqaEnvs();
  registerProceduralEnvs();
});

/** The visual-search recipe's look: a cell of an 8 × 8 frame over the 2048-px image, 364 px around its centre at 128 px. */
const cellCrop = defineTool({
  name: 'search_coordinate',
  description: 'Returns the 364-px region around cell [column, row] of an 8 × 8 grid, at 128 px.',
  inputSchema: z.object({ coordinate: z.tuple([z.number().int().min(0).max(7), z.number().int().min(0).max(7)]) }),
  async execute({ coordinate: [column, row] }, { images }) {
    const [x, y] = [(column + 0.5) * 256, (row + 0.5) * 256];
    const box = clipBox({ x1: x - 182, y1: y - 182, x2: x + 182, y2: y + 182 }, 2048, 2048);
    const image = await crop(images[0]!, box, { resize: { width: 128, height: 128, fit: 'fill' } });
    return { text: 'The region.', images: [image], region: [box.x1, box.y1, box.x2, box.y2] };
  },
  lookAt: ([x1, y1, x2, y2]) => ({ coordinate: [Math.min(7, Math.floor((x1 + x2) / 2 / 256)), Math.min(7, Math.floor((y1 + y2) / 2 / 256))] as [number, number] }),
});

const lookalikes = (): Env => new ToolUseWrapper(makeEnv('saccade/VisualSearch-v1', { level: 'lookalikes', split: 'test' }), { tools: [cellCrop], maxTurns: 5 });

/** One episode with the full chat each turn: the responses, whether each call held the target, and success. */
async function play(env: Env, agent: (env: Env) => Agent, seed: number): Promise<{ actions: string[]; hits: boolean[]; success: boolean }> {
  const player = agent(env);
  let { observation } = await env.reset({ seed });
  const history: { observation: typeof observation; action: string }[] = [];
  const hits: boolean[] = [];
  for (let turn = 0; turn < 5; turn++) {
    const action = (await player.act({ messages: buildMessages({ systemPrompt: env.systemPrompt(), history, observation }) })).outputs[0]!.text;
    const result = await env.step(action);
    for (const call of (result.info['toolCalls'] as { ok: boolean; hit?: boolean }[] | undefined) ?? []) {
      expect(call.ok).toBe(true);
      hits.push(call.hit === true);
    }
    history.push({ observation, action });
    observation = result.observation;
    if (result.terminated || result.truncated) return { actions: history.map((entry) => entry.action), hits, success: result.info.metrics?.['success'] === true };
  }
  throw new Error('the episode did not end in 5 turns');
}

describe('createNoisyLookingAgent', () => {
  it('with hitProbability 1 it looks as the oracle does and answers right once it has seen the target', async () => {
    const env = lookalikes();
    for (const seed of [0, 1, 2]) {
      const { actions, hits, success } = await play(env, (played) => createNoisyLookingAgent({ env: played, hitProbability: 1, accuracyWhenSeen: 1, seed }), seed);
      expect([actions.length, hits, success]).toEqual([2, [true], true]);
    }
    await env.close();
  });

  it('with hitProbability 0 it looks at random cells, valid in the tool frame, then guesses; the same seed plays the same episode', async () => {
    const env = lookalikes();
    const agent = (played: Env) => createNoisyLookingAgent({ env: played, hitProbability: 0, accuracyWhenSeen: 1, maxLooks: 2, seed: 'noisy' });
    const played = [];
    for (let seed = 0; seed < 6; seed++) played.push(await play(env, agent, seed));
    // Two looks unless a random one held the target; a random look rarely does (look-alikes fill the image).
    for (const { actions, hits } of played) {
      expect(actions.length).toBe(hits.length + 1);
      expect(hits.length === 2 || hits.at(-1) === true).toBe(true);
      for (const action of actions.slice(0, -1)) expect(action).toMatch(/^<tool_call>\{"name":"search_coordinate","arguments":\{"coordinate":\[[0-7],[0-7]\]\}\}<\/tool_call>$/);
      expect(actions.at(-1)).toMatch(/<answer>.+<\/answer>/);
    }
    expect(played.filter(({ hits }) => !hits.includes(true)).length).toBeGreaterThanOrEqual(4);
    expect((await play(env, agent, 3)).actions).toEqual(played[3]!.actions);
    await env.close();
  });

  it('refuses an env without an oracle and probabilities out of range', () => {
    const env = lookalikes();
    expect(() => createNoisyLookingAgent({ env, hitProbability: 1.5 })).toThrow(/hitProbability: expected a probability from 0 to 1, received 1.5/);
    expect(() => createNoisyLookingAgent({ env, maxLooks: -1 })).toThrow(/maxLooks: expected an integer ≥ 0/);
    const bare = { specificationVersion: 'v1', id: 'test/Bare-v1', systemPrompt: () => '', reset: async () => ({ observation: { text: '', images: [] }, info: {} }), step: async () => ({}), close: async () => {} } as unknown as Env;
    expect(() => createNoisyLookingAgent({ env: bare })).toThrow(/oracle/i);
  });
});
