import { InvalidArgumentError, type Agent, type AgentActOptions, type AgentResponse, type Env } from '@saccade/spec';
import { OracleNotFoundError } from '../errors/oracle-not-found-error';

/** An env (or wrapper) that knows a correct response for its current state: the spec's optional `Env.oracleResponse`. */
export type OracleCapable = Required<Pick<Env, 'oracleResponse'>>;

/**
 * True for an env (or wrapper) that has `oracleResponse()`: the test the oracle agent uses while it
 * walks an env chain.
 */
export function isOracleCapable(value: unknown): value is OracleCapable {
  return typeof value === 'object' && value !== null && typeof (value as { oracleResponse?: unknown }).oracleResponse === 'function';
}

const MAX_DEPTH = 64;

/** The env, then the env it wraps (`.env`), and so on, outermost first. */
export function envChain(env: Env): Env[] {
  const chain: Env[] = [];
  let current: unknown = env;
  while (typeof current === 'object' && current !== null && !chain.includes(current as Env) && chain.length < MAX_DEPTH) {
    chain.push(current as Env);
    current = (current as { env?: unknown }).env;
  }
  return chain;
}

/** The outermost env in the `.env` chain with an `oracleResponse()` method, or undefined. */
export function findOracle(env: Env): OracleCapable | undefined {
  return envChain(env).find(isOracleCapable) as OracleCapable | undefined;
}

/**
 * The env an oracle agent plays, and a fallback solver for envs that have no `oracleResponse()`.
 */
export interface OracleAgentSettings {
  /** The env the agent plays; the oracle is looked up on it and on every env it wraps. */
  env: Env;
  /**
   * Used when no env in the chain has `oracleResponse()`: gets the innermost env and returns the
   * right response, e.g. `(inner) => oracleResponse(inner as FrozenLakeEnv)` from @saccade/env-grid.
   */
  oracle?: (innermost: Env) => string | Promise<string>;
  id?: string;
}

/**
 * An agent that always answers right: it asks the env's solver for the response to the env's
 * current state. Messages are ignored; `n` samples are `n` copies. Use it to check that an env can
 * be solved, to make SFT demonstrations, or as an upper bound in evaluations.
 *
 * @example
 * const env = makeEnv('saccade/FrozenLake-v1', { observation: 'text' });
 * const agent = createOracleAgent({ env });
 */
export function createOracleAgent({ env, oracle, id = 'oracle' }: OracleAgentSettings): Agent {
  if (typeof env !== 'object' || env === null || typeof env.step !== 'function') {
    throw new InvalidArgumentError({ argument: 'env', expected: 'an Env', value: env });
  }
  const chain = envChain(env);
  const capable = findOracle(env);
  if (capable === undefined && oracle === undefined) {
    throw new OracleNotFoundError({ envId: env.id, chain: chain.map((link) => link.constructor?.name ?? typeof link) });
  }
  const innermost = chain[chain.length - 1] ?? env;
  const answer = (): string | Promise<string> => (capable !== undefined ? capable.oracleResponse() : oracle!(innermost));
  return {
    specificationVersion: 'v1',
    id,
    async act({ n = 1, signal }: AgentActOptions): Promise<AgentResponse> {
      signal?.throwIfAborted();
      const text = await answer();
      if (typeof text !== 'string') {
        throw new InvalidArgumentError({ argument: 'oracleResponse()', expected: 'a string', value: text });
      }
      return { outputs: Array.from({ length: n }, () => ({ text, finishReason: 'stop' as const })) };
    },
  };
}
