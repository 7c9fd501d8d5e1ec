import { checkEnv, makeEnv } from '@saccade/core';
import type { Env } from '@saccade/spec';
import { describe, expect, it } from 'vitest';
import { GridEnv } from './grid-env';
import { oracleResponse } from './oracle-response';
import { FROZEN_LAKE_ID, SOKOBAN_ID, registerGridEnvs } from './register-grid-envs';

function inner(env: Env): GridEnv<never> {
  let current: unknown = env;
  while (!(current instanceof GridEnv)) current = (current as { env: unknown }).env;
  return current as GridEnv<never>;
}

/** The oracle's answers for one episode of seed 0. */
async function oracleActions(id: string): Promise<string[]> {
  const env = makeEnv(id, { observation: 'text' });
  await env.reset({ seed: 0 });
  const actions: string[] = [];
  for (;;) {
    actions.push(oracleResponse(inner(env)));
    const result = await env.step(actions.at(-1)!);
    if (result.terminated || result.truncated) return actions;
  }
}

describe('registerGridEnvs', () => {
  it('registers both envs with a 3-turn limit', async () => {
    registerGridEnvs();
    registerGridEnvs(); // again: re-registers, no error
    const env = makeEnv(FROZEN_LAKE_ID, { observation: 'text', map: ['SFFF', 'FFFF', 'FFFF', 'FFFG'] });
    await env.reset({ seed: 1 });
    const answer = '<think>x</think><answer>Up</answer>';
    expect((await env.step(answer)).truncated).toBe(false);
    expect((await env.step(answer)).truncated).toBe(false);
    expect((await env.step(answer)).truncated).toBe(true);
  });

  it.each([FROZEN_LAKE_ID, SOKOBAN_ID])('%s passes checkEnv in every observation mode', async (id) => {
    registerGridEnvs();
    const actions = [...(await oracleActions(id)), '<think>x</think><answer>Up</answer>'];
    for (const observation of ['vision', 'text', 'both']) {
      const report = await checkEnv(() => makeEnv(id, { observation }), { actions });
      expect(report.failures, `${id} ${observation}`).toEqual([]);
    }
  });
});
