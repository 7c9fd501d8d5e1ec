import { makeEnv, ToolUseWrapper } from '@saccade/core';
import type { RolloutPrompt } from '@saccade/rollout';
import type { Env } from '@saccade/spec';

/** Creates an episode's env: the registry's, with a turn cap, wrapped with the tools the agent may call. */
export function envFactory({ maxTurns, tools }: { maxTurns?: number; tools: readonly string[] }): (prompt: RolloutPrompt) => Env {
  return (prompt) => {
    const env = makeEnv(prompt.envId, prompt.envOptions ?? {}, maxTurns === undefined ? {} : { maxTurns });
    return tools.length > 0 ? new ToolUseWrapper(env, { tools: [...tools], ...(maxTurns === undefined ? {} : { maxTurns }) }) : env;
  };
}
