import type { ActionSpace } from './action-space';
import type { EnvInfo } from './env-info';
import type { Observation } from './observation';

/** The arguments of `Env.reset`: a seed (same seed, same episode) and env-specific options for this episode. */
export interface EnvResetOptions {
  /** Same seed, same episode. Without a seed the env picks one. */
  seed?: number;
  /** Env-specific options for this episode. */
  options?: Record<string, unknown>;
}

/** What `Env.reset` returns: the first observation and its info. */
export interface ResetResult {
  observation: Observation;
  info: EnvInfo;
}

/** What `Env.step` returns (Gymnasium's five values, named). */
export interface StepResult {
  observation: Observation;
  /** A finite number; the sum of `info.rewardTerms` when those are given. */
  reward: number;
  /** The task ended (goal reached, failure, answer given). */
  terminated: boolean;
  /** A budget cut the episode off (turn limit, time limit). */
  truncated: boolean;
  info: EnvInfo;
}

/**
 * An environment, following Gymnasium's contract with async methods and named fields. Actions are
 * the agent's raw text; the env parses and scores them and never throws on a bad action: it
 * returns an observation that says what was wrong.
 */
export interface Env {
  readonly specificationVersion: 'v1';
  /** The registry id, e.g. `saccade/FrozenLake-v1`. */
  readonly id: string;
  reset(options?: EnvResetOptions): Promise<ResetResult>;
  step(action: string): Promise<StepResult>;
  /** The system prompt that explains the task, the actions and the output format. */
  systemPrompt(): string;
  /** Frees resources. Calling it twice is allowed. */
  close(): Promise<void>;
  /**
   * Optional capability: a correct response to the current state, in the env's own output format
   * (a solver's plan, the task's answer). Envs that have one can make demonstrations for SFT
   * through the oracle agent; wrappers pass it through.
   */
  oracleResponse?(): string | Promise<string>;
  /**
   * Optional capability: what the env accepts as an action in its current state (discrete text
   * actions, free text, tool calls). Random agents and `checkEnv` read it; wrappers pass it through.
   */
  actionSpace?(): ActionSpace;
}
