import { getEnvSpec, makeEnv, ToolUseWrapper, type LookingOracleOptions, type ToolRewards } from '@saccade/core';
import type { RolloutPrompt } from '@saccade/rollout';
import type { Env } from '@saccade/spec';

/**
 * Why the run's tools cannot wrap an env, or undefined when they can: the env calls some of them in
 * a tool loop of its own (its spec's `usesTools`: the grounded envs crop in ViGoRL's format), and
 * a second loop around it would take those calls before the env's own saw them.
 */
export function envToolsConflict(envId: string, tools: readonly string[]): string | undefined {
  const own = getEnvSpec(envId)?.usesTools ?? [];
  const both = tools.filter((name) => own.includes(name));
  if (both.length === 0) return undefined;
  return `tools: ${envId} calls ${both.join(', ')} in its own tool loop; expected tools it does not call itself, received ${JSON.stringify(tools)}. Drop ${both.join(', ')} from tools: the env's own options set its crops (seenSize, cells, crop, maxCrops).`;
}

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
    const conflict = envToolsConflict(prompt.envId, tools);
    if (conflict !== undefined) throw new Error(conflict);
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
