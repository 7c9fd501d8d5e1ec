import { buildMessages, EnvWrapper, makeEnv, parseFormattedResponse } from '@saccade/core';
import { FROZEN_LAKE_ID, SOKOBAN_ID, registerGridEnvs } from '@saccade/env-grid';
import type { Agent, Env } from '@saccade/spec';
import { beforeAll, describe, expect, it } from 'vitest';
import { OracleNotFoundError } from '../errors/oracle-not-found-error';
import { createOracleAgent, findOracle, type OracleCapable } from './oracle-agent';

beforeAll(() => registerGridEnvs());

async function runEpisode(env: Env, agent: Agent, seed: number): Promise<boolean> {
  let { observation } = await env.reset({ seed });
  for (let turn = 0; turn < 20; turn++) {
    const { outputs } = await agent.act({ messages: buildMessages({ systemPrompt: env.systemPrompt(), observation }) });
    const result = await env.step(outputs[0]!.text);
    observation = result.observation;
    if (result.terminated || result.truncated) return result.info.metrics?.success === true;
  }
  return false;
}

describe('createOracleAgent', () => {
  for (const [id, format] of [
    [FROZEN_LAKE_ID, 'free_think'],
    [SOKOBAN_ID, 'grounding_worldmodeling'],
  ] as const) {
    it(`solves ${id} on 50 seeds (${format}, text observations)`, async () => {
      const env = makeEnv(id, { observation: 'text', format });
      const agent = createOracleAgent({ env });
      let successes = 0;
      for (let seed = 0; seed < 50; seed++) if (await runEpisode(env, agent, seed)) successes++;
      await env.close();
      expect(successes).toBe(50);
    });
  }

  it("answers in the env's format, n copies", async () => {
    const env = makeEnv(FROZEN_LAKE_ID, { observation: 'text', format: 'no_think' });
    await env.reset({ seed: 3 });
    const { outputs } = await createOracleAgent({ env }).act({ messages: [], n: 2 });
    expect(outputs).toHaveLength(2);
    expect(parseFormattedResponse(outputs[0]!.text, { format: 'no_think' }).formatCorrect).toBe(true);
  });

  it('finds oracleResponse() on a wrapped env through the .env chain', async () => {
    class Solvable implements Env, OracleCapable {
      readonly specificationVersion = 'v1' as const;
      readonly id = 'test/Solvable-v1';
      async reset() {
        return { observation: { text: 'go', images: [] }, info: {} };
      }
      async step() {
        return { observation: { text: 'done', images: [] }, reward: 1, terminated: true, truncated: false, info: {} };
      }
      systemPrompt() {
        return '';
      }
      async close() {}
      oracleResponse() {
        return '<answer>win</answer>';
      }
    }
    const inner = new Solvable();
    const wrapped = new EnvWrapper(new EnvWrapper(inner));
    expect(findOracle(wrapped)).toBe(inner);
    const { outputs } = await createOracleAgent({ env: wrapped }).act({ messages: [] });
    expect(outputs[0]?.text).toBe('<answer>win</answer>');
  });

  it('says where it looked when no oracle exists', () => {
    class Unsolvable implements Env {
      readonly specificationVersion = 'v1' as const;
      readonly id = 'test/Unsolvable-v1';
      async reset() {
        return { observation: { text: 'go', images: [] }, info: {} };
      }
      async step() {
        return { observation: { text: 'done', images: [] }, reward: 0, terminated: true, truncated: false, info: {} };
      }
      systemPrompt() {
        return '';
      }
      async close() {}
    }
    const error = (() => {
      try {
        createOracleAgent({ env: new EnvWrapper(new Unsolvable()) });
      } catch (caught) {
        return caught;
      }
    })();
    expect(OracleNotFoundError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/EnvWrapper → Unsolvable/);
  });
});
