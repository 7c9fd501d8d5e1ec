import { makeEnv, ToolUseWrapper, type ToolRewards } from '@saccade/core';
import type { RolloutPrompt } from '@saccade/rollout';
import type { Env } from '@saccade/spec';

/** Creates an episode's env: the registry's, with a turn cap, wrapped with the tools the agent may call (and the tool loop's rewards). */
export function envFactory({ maxTurns, tools, toolRewards }: { maxTurns?: number; tools: readonly string[]; toolRewards?: ToolRewards }): (prompt: RolloutPrompt) => Env {
  return (prompt) => {
    const env = makeEnv(prompt.envId, prompt.envOptions ?? {}, maxTurns === undefined ? {} : { maxTurns });
    return tools.length > 0 ? new ToolUseWrapper(env, { tools: [...tools], ...(maxTurns === undefined ? {} : { maxTurns }), ...(toolRewards === undefined ? {} : { rewards: toolRewards }) }) : env;
  };
}
