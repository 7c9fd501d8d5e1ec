import { buildMessages, makeEnv, parseFormattedResponse } from '@saccade/core';
import { FROZEN_LAKE_ID, registerGridEnvs } from '@saccade/env-grid';
import { InvalidArgumentError, InvalidStateError, type Env } from '@saccade/spec';
import { beforeAll, describe, expect, it } from 'vitest';
import { OracleNotFoundError } from '../errors/oracle-not-found-error';
import { createGroundedRandomAgent } from './grounded-random-agent';
import { findOracle } from './oracle-agent';
import { createRandomAgent } from './random-agent';

beforeAll(() => registerGridEnvs());

const ACTIONS = ['Left', 'Down', 'Right', 'Up'];

describe('createGroundedRandomAgent', () => {
  it("writes the env's true observation and a random agent's actions: every turn's grounding scores 1", async () => {
    const env = makeEnv(FROZEN_LAKE_ID, { observation: 'text', format: 'grounding', maxActionsPerTurn: 1, visualReasoningReward: true });
    const grounded = createGroundedRandomAgent({ env, actions: ACTIONS, maxActions: 1, seed: 'demonstration:7' });
    const random = createRandomAgent({ actions: ACTIONS, format: 'grounding', maxActions: 1, seed: 'demonstration:7' });
    let turns = 0;
    for (let seed = 0; seed < 6; seed++) {
      let { observation } = await env.reset({ seed });
      for (let turn = 0; turn < 10; turn++) {
        const truth = parseFormattedResponse((await findOracle(env)!.oracleResponse()) as string, { format: 'grounding' });
        const text = (await grounded.act({ messages: buildMessages({ systemPrompt: env.systemPrompt(), observation }) })).outputs[0]!.text;
        const randomText = (await random.act({ messages: [] })).outputs[0]!.text;
        const parsed = parseFormattedResponse(text, { format: 'grounding' });
        expect(parsed.formatCorrect).toBe(true);
        expect(parsed.observation).toBe(truth.observation);
        // The same draws as the random agent with the same seed: the policy is the random agent's.
        expect(parsed.answer).toBe(parseFormattedResponse(randomText, { format: 'grounding' }).answer);
        expect(parsed.reasoning).toBe(`I try ${parsed.answer}.`);
        expect(text).not.toContain('shortest plan');
        const result = await env.step(text);
        turns++;
        expect(result.info.rewardTerms).toMatchObject({ format: 0.5, grounding: 0.5 });
        observation = result.observation;
        if (result.terminated || result.truncated) break;
      }
    }
    expect(turns).toBeGreaterThan(6);
    await env.close();
  });

  it('gives n samples of the same observation, each with its own draw', async () => {
    const env = makeEnv(FROZEN_LAKE_ID, { observation: 'text', format: 'grounding' });
    await env.reset({ seed: 2 });
    const { outputs } = await createGroundedRandomAgent({ env, actions: ACTIONS, maxActions: 3, separator: ',', seed: 1 }).act({ messages: [], n: 4 });
    expect(outputs).toHaveLength(4);
    const observations = outputs.map(({ text }) => parseFormattedResponse(text, { format: 'grounding' }).observation);
    expect(new Set(observations).size).toBe(1);
    for (const { text } of outputs) {
      const { actions } = parseFormattedResponse(text, { format: 'grounding', maxActions: 3 });
      expect(actions.length).toBeGreaterThanOrEqual(1);
      expect(actions.every((action) => ACTIONS.includes(action))).toBe(true);
    }
  });

  it('refuses a format without an observation or with a prediction, naming what it expects', () => {
    const env = makeEnv(FROZEN_LAKE_ID, { observation: 'text', format: 'grounding' });
    for (const format of ['free_think', 'no_think', 'grounding_worldmodeling'] as const) {
      const attempt = () => createGroundedRandomAgent({ env, actions: ACTIONS, format });
      expect(attempt).toThrow(InvalidArgumentError);
      expect(attempt).toThrow(/a format with an <observation> and no <prediction>/);
    }
  });

  it('refuses an env without an oracle', () => {
    const env = { id: 'plain', step: async () => ({}), reset: async () => ({}) } as unknown as Env;
    expect(() => createGroundedRandomAgent({ env, actions: ACTIONS })).toThrow(OracleNotFoundError);
  });

  it("says what came when the oracle's response has no observation", async () => {
    const env = makeEnv(FROZEN_LAKE_ID, { observation: 'text', format: 'no_think' });
    await env.reset({ seed: 0 });
    const agent = createGroundedRandomAgent({ env, actions: ACTIONS });
    await expect(agent.act({ messages: [] })).rejects.toThrow(InvalidStateError);
    await expect(agent.act({ messages: [] })).rejects.toThrow(/with an <observation>.*"<answer>/);
  });
});
