import type { Env } from './env';

/**
 * How an env is registered: an id of the form `namespace/Name-vN` and a factory.
 */
export interface EnvSpec<OPTIONS extends object = Record<string, unknown>> {
  /** `namespace/Name-vN`, e.g. `saccade/Sokoban-v1`. */
  id: string;
  create(options: OPTIONS): Env;
  /** When set, `makeEnv` wraps the env so that episodes are truncated after this many steps. */
  maxTurns?: number;
  description?: string;
  /** Options merged under the options given to `makeEnv`. */
  defaultOptions?: Partial<OPTIONS>;
  /**
   * Tools the env calls in a tool loop of its own, through the tool registry (the grounded envs
   * crop with `search_coordinate` in ViGoRL's format): a runner registers them, and does not wrap
   * the env in a second tool loop for the same names, whose calls the env's own would never see.
   */
  usesTools?: readonly string[];
}
