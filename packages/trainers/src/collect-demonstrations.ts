import { EnvWrapper, makeEnv } from '@saccade/core';
import { GridEnv, oracleResponse, type GridState } from '@saccade/env-grid';
import type { Env, Observation } from '@saccade/spec';

/** One supervised example: what the env showed and what the solver answered. */
export interface Demonstration {
  seed: number;
  turn: number;
  observation: Observation;
  response: string;
}

export interface CollectDemonstrationsOptions {
  envId: string;
  envOptions?: Record<string, unknown>;
  seeds: Iterable<number>;
  /** Turn cap per episode (default: the registered env's). */
  maxTurns?: number;
  /** Stop after this many examples (default: all turns of all seeds). */
  limit?: number;
}

/** Plays each seed with the env's BFS oracle and records every turn as a demonstration. */
export async function collectDemonstrations(options: CollectDemonstrationsOptions): Promise<Demonstration[]> {
  const env = makeEnv(options.envId, options.envOptions ?? {}, options.maxTurns === undefined ? {} : { maxTurns: options.maxTurns });
  const demonstrations: Demonstration[] = [];
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  try {
    for (const seed of options.seeds) {
      let { observation } = await env.reset({ seed });
      for (let turn = 0; demonstrations.length < limit; turn++) {
        const response = oracleResponse(unwrapGridEnv(env));
        demonstrations.push({ seed, turn, observation, response });
        const result = await env.step(response);
        observation = result.observation;
        if (result.terminated || result.truncated) break;
      }
      if (demonstrations.length >= limit) break;
    }
  } finally {
    await env.close();
  }
  return demonstrations;
}

/** The grid env under core's wrappers, whose solver writes the demonstrations. */
export function unwrapGridEnv(env: Env): GridEnv<GridState> {
  const inner = env instanceof EnvWrapper ? env.unwrapped : env;
  if (inner instanceof GridEnv) return inner as GridEnv<GridState>;
  throw new TypeError(`Env ${env.id} has no solver: demonstrations need a grid env (FrozenLake, Sokoban).`);
}
