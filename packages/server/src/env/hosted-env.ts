import { envToolsConflict, makeEnv, ToolUseWrapper } from '@saccade/core';
import type { Env } from '@saccade/spec';
import type { ResolvedEnvConfig } from './vagen-env-configs';

/** An env the service holds for a client, under an id of one of its protocols. */
export interface HostedEnv {
  env: Env;
  envId: string;
  imagePlaceholder: string;
  /** A line VAGEN's prompt format adds to the system prompt. */
  promptNote?: string;
  /** Whether `step` may be called (reset done, episode not over). */
  phase: 'created' | 'running' | 'done';
  /** When it was created (ms since the epoch). */
  createdAt: number;
}

/**
 * The env a resolved `{env_name, env_config}` names: the registry's, with its turn limit, wrapped
 * with `ToolUseWrapper` when the config lists tools. Every protocol of the env service creates its
 * envs here, so a config means the same env whichever protocol sent it.
 */
export function createHostedEnv(config: ResolvedEnvConfig): HostedEnv {
  const conflict = envToolsConflict(config.envId, config.tools ?? []);
  if (conflict !== undefined) throw new Error(conflict);
  const env = makeEnv(config.envId, config.options, config.maxTurns === undefined ? {} : { maxTurns: config.maxTurns });
  let wrapped = env;
  if (config.tools !== undefined) {
    try {
      wrapped = new ToolUseWrapper(env, { tools: config.tools, ...config.toolUse, ...(typeof config.maxTurns === 'number' ? { maxTurns: config.maxTurns } : {}) });
    } catch (error) {
      void env.close();
      throw error;
    }
  }
  return {
    env: wrapped,
    envId: config.envId,
    imagePlaceholder: config.imagePlaceholder,
    phase: 'created',
    createdAt: Date.now(),
    ...(config.promptNote === undefined ? {} : { promptNote: config.promptNote }),
  };
}

/** The system prompt as VAGEN's clients get it: the env's, and the line of VAGEN's prompt format. */
export const hostedSystemPrompt = (hosted: HostedEnv): string => (hosted.promptNote === undefined ? hosted.env.systemPrompt() : `${hosted.env.systemPrompt()}\n${hosted.promptNote}`);
