import { buildMessages, makeEnv } from '@saccade/core';
import { PROCEDURAL_VQA_ENVS, registerProceduralEnvs, SVG_RECONSTRUCTION_ID } from '@saccade/env-procedural';
import { registerVqaEnvs } from '@saccade/env-vqa';
import type { Agent, Env } from '@saccade/spec';
import { beforeAll, describe, expect, it } from 'vitest';
import { createOracleAgent } from './oracle-agent';

// The procedural VQA envs play their tasks in env-vqa's env, reached through the registry.
beforeAll(() => {
  registerVqaEnvs();
  registerProceduralEnvs();
});

/** Plays one episode with the full chat each turn (system prompt, earlier turns, the observation); returns success. */
async function runEpisode(env: Env, agent: Agent, seed: number): Promise<boolean> {
  let { observation } = await env.reset({ seed });
  const history: { observation: typeof observation; action: string }[] = [];
  for (let turn = 0; turn < 10; turn++) {
    const { outputs } = await agent.act({ messages: buildMessages({ systemPrompt: env.systemPrompt(), history, observation }) });
    const action = outputs[0]!.text;
    const result = await env.step(action);
    history.push({ observation, action });
    observation = result.observation;
    if (result.terminated || result.truncated) return result.info.metrics?.success === true;
  }
  return false;
}

const SEEDS = 30;

describe('createOracleAgent on the procedural tasks', () => {
  const cases: [string, Record<string, unknown>][] = [
    ...PROCEDURAL_VQA_ENVS.flatMap(({ id }): [string, Record<string, unknown>][] => [
      [id, { difficulty: 0.5 }],
      [id, { difficulty: 1, format: 'free_think' }],
    ]),
    [SVG_RECONSTRUCTION_ID, { difficulty: 0.5 }],
  ];

  it.each(cases)('solves all 30 seeds of %s (%o)', async (id, options) => {
    const env = makeEnv(id, options);
    const agent = createOracleAgent({ env });
    let successes = 0;
    for (let seed = 0; seed < SEEDS; seed++) if (await runEpisode(env, agent, seed)) successes++;
    await env.close();
    expect(successes).toBe(SEEDS);
  });
});
