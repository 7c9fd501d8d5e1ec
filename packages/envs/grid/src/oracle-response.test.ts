import { makeEnv, OUTPUT_FORMATS, parseFormattedResponse } from '@saccade/core';
import type { Env } from '@saccade/spec';
import { describe, expect, it } from 'vitest';
import { FrozenLakeEnv } from './frozen-lake/frozen-lake-env';
import { frozenLakeMapFromRows } from './frozen-lake/frozen-lake-map';
import { GridEnv } from './grid-env';
import { oracleResponse } from './oracle-response';
import { FROZEN_LAKE_ID, SOKOBAN_ID, registerGridEnvs } from './register-grid-envs';
import { sokobanStateFromText } from './sokoban/sokoban-rules';

/** The grid env under makeEnv's wrappers (they hold it as `env`). */
function inner(env: Env): GridEnv<never> {
  let current: unknown = env;
  while (!(current instanceof GridEnv)) current = (current as { env: unknown }).env;
  return current as GridEnv<never>;
}

describe('oracleResponse', () => {
  it('writes each format with the cap, true observation and prediction', () => {
    const state = { map: frozenLakeMapFromRows(['SFFF', 'FHFH', 'FFFH', 'HFFG']), player: { row: 0, col: 0 } };
    for (const format of OUTPUT_FORMATS) {
      const parsed = parseFormattedResponse(oracleResponse(state, format, { maxActionsPerTurn: 2 }), { format });
      expect(parsed.formatCorrect).toBe(true);
      expect(parsed.actions).toEqual(['Down', 'Down']); // the first two moves of the BFS plan
    }
    const sokoban = sokobanStateFromText(['######', '#____#', '#_XO_#', '#_P__#', '#____#', '######']);
    expect(oracleResponse(sokoban, 'no_think')).toBe('<answer>Left, Up, Right</answer>');
  });

  it('solves 1,000 seeds of each env within the registered 3 turns, with full visual reasoning reward', async () => {
    registerGridEnvs();
    for (const id of [FROZEN_LAKE_ID, SOKOBAN_ID]) {
      let successes = 0;
      for (let seed = 0; seed < 1000; seed++) {
        const format = OUTPUT_FORMATS[seed % OUTPUT_FORMATS.length]!;
        const env = makeEnv(id, { observation: 'text', format, visualReasoningReward: true });
        await env.reset({ seed });
        for (;;) {
          const result = await env.step(oracleResponse(inner(env)));
          const terms = result.info.rewardTerms!;
          expect(terms.format).toBe(0.5);
          if (format.startsWith('grounding')) expect(terms.grounding).toBe(0.5);
          if (format.endsWith('worldmodeling')) expect(terms.worldmodel).toBe(0.5);
          if (result.terminated || result.truncated) {
            if (result.info.metrics?.success === true) successes++;
            break;
          }
        }
      }
      expect(successes, id).toBe(1000);
    }
  });

  it('refuses a finished episode', async () => {
    const env = new FrozenLakeEnv({ observation: 'text', map: ['SG', 'FF'] });
    await env.reset({ seed: 0 });
    await env.step(oracleResponse(env));
    expect(() => oracleResponse(env)).toThrow(/no plan/);
  });

  it('is also a method of the env, found under makeEnv wrappers', async () => {
    registerGridEnvs();
    const env = makeEnv(FROZEN_LAKE_ID, { format: 'no_think', observation: 'text' });
    await env.reset({ seed: 3 });
    const grid = inner(env);
    expect(grid.oracleResponse()).toBe(oracleResponse(grid));
    await env.close();
  });
});
