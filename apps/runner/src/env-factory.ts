import { makeEnv, ToolUseWrapper, type LookingOracleOptions, type ToolRewards } from '@saccade/core';
import type { RolloutPrompt } from '@saccade/rollout';
import type { Env } from '@saccade/spec';

/**
 * Creates an episode's env: the registry's, with a turn cap, wrapped with the tools the agent may
 * call (and the tool loop's rewards, and when its looking oracle counts a target as seen).
 */
export function envFactory({
  maxTurns,
  tools,
  toolRewards,
  lookingOracle,
}: {
  maxTurns?: number;
  tools: readonly string[];
  toolRewards?: ToolRewards;
  lookingOracle?: LookingOracleOptions;
}): (prompt: RolloutPrompt) => Env {
  return (prompt) => {
    const env = makeEnv(prompt.envId, prompt.envOptions ?? {}, maxTurns === undefined ? {} : { maxTurns });
    if (tools.length === 0) return env;
    return new ToolUseWrapper(env, {
      tools: [...tools],
      ...(maxTurns === undefined ? {} : { maxTurns }),
      ...(toolRewards === undefined ? {} : { rewards: toolRewards }),
      ...(lookingOracle === undefined ? {} : { lookingOracle }),
    });
  };
}
