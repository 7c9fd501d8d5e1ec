import type { Agent, Env, StepResult } from '@saccade/spec';
import { runRollouts } from '../run-rollouts';
import { trajectorySteps } from '../trajectory-steps';

/** How {@link playEpisode} plays. */
export interface PlayEpisodeOptions {
  /** The reset seed. Default 0. */
  seed?: number;
  /** Default 10. */
  maxTurns?: number;
}

/**
 * Plays one episode of `env` through the rollout manager, so the agent sees the chat messages it
 * would in a run (system prompt, history, images), and gives the env's step results: a test of an
 * env, a tool or a wrapper checks what the env answered. An episode that stopped on an error throws.
 *
 * @example
 * const steps = await playEpisode(new ToolUseWrapper(env, { tools: ['image_zoom_in_tool'] }), new MockAgent({ responses }), { seed: 3 });
 * expect(steps.at(-1)!.reward).toBe(1);
 */
export async function playEpisode(env: Env, agent: Agent, options: PlayEpisodeOptions = {}): Promise<StepResult[]> {
  const { trajectories, images } = await runRollouts({ agent, prompts: [{ envId: env.id, seed: options.seed ?? 0 }], createEnv: () => env, maxTurns: options.maxTurns ?? 10 });
  const [trajectory] = trajectories;
  if (trajectory === undefined) throw new Error('The episode did not run: the rollout manager returned no trajectory.');
  if (trajectory.error !== undefined) throw new Error(`The episode failed: ${trajectory.error.name}: ${trajectory.error.message}`);
  return trajectorySteps(trajectory, images);
}
