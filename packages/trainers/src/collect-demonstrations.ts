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

/** Episodes played at once: rendering a frame waits on sharp's thread pool, so one at a time idles. */
const CONCURRENT_EPISODES = 8;

/**
 * Plays each seed with the env's BFS oracle and records every turn as a demonstration, in seed
 * order whatever the concurrency.
 */
export async function collectDemonstrations(options: CollectDemonstrationsOptions): Promise<Demonstration[]> {
  const seeds = [...options.seeds];
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const bySeed: Demonstration[][] = new Array<Demonstration[]>(seeds.length);
  let next = 0;
  let collected = 0;
  const worker = async (): Promise<void> => {
    const env = makeEnv(options.envId, options.envOptions ?? {}, options.maxTurns === undefined ? {} : { maxTurns: options.maxTurns });
    try {
      // Stop taking seeds once the earlier ones are enough (each seed still plays whole).
      while (next < seeds.length && collected < limit) {
        const index = next++;
        const played = await playOracleEpisode(env, seeds[index] as number);
        bySeed[index] = played;
        collected += played.length;
      }
    } finally {
      await env.close();
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENT_EPISODES, Math.max(1, seeds.length)) }, worker));
  const demonstrations: Demonstration[] = [];
  for (const played of bySeed) {
    if (!played || demonstrations.length >= limit) break;
    demonstrations.push(...played.slice(0, limit - demonstrations.length));
  }
  return demonstrations;
}

async function playOracleEpisode(env: Env, seed: number): Promise<Demonstration[]> {
  const demonstrations: Demonstration[] = [];
  let { observation } = await env.reset({ seed });
  for (let turn = 0; ; turn++) {
    const response = oracleResponse(unwrapGridEnv(env));
    demonstrations.push({ seed, turn, observation, response });
    const result = await env.step(response);
    observation = result.observation;
    if (result.terminated || result.truncated) return demonstrations;
  }
}

/** The grid env under core's wrappers, whose solver writes the demonstrations. */
export function unwrapGridEnv(env: Env): GridEnv<GridState> {
  const inner = env instanceof EnvWrapper ? env.unwrapped : env;
  if (inner instanceof GridEnv) return inner as GridEnv<GridState>;
  throw new TypeError(`Env ${env.id} has no solver: demonstrations need a grid env (FrozenLake, Sokoban).`);
}
