import type { Env, Observation, ResetResult, StepResult } from '@saccade/spec';

/**
 * One scripted response: the text itself, or a function of the observation the env last gave and
 * the env (e.g. `(_, env) => env.oracleResponse!()`).
 */
export type ScriptedResponse<E extends Env = Env> = string | ((observation: Observation, env: E) => string | Promise<string>);

/** How {@link runEpisode} plays. */
export interface RunEpisodeOptions {
  /** The reset seed. Default 0. */
  seed?: number;
  /** With a single response function: the most turns to play. Default 50. */
  maxTurns?: number;
}

/** What {@link runEpisode} played: the reset, every step, and the total reward. */
export interface EpisodeRun {
  /** What reset() returned. */
  reset: ResetResult;
  /** What each step() returned, in order. */
  steps: StepResult[];
  /** The sum of the steps' rewards. */
  totalReward: number;
  /** Whether the last step ended the episode (terminated or truncated). */
  done: boolean;
}

/**
 * Plays `env` straight through its contract, without an agent or the rollout manager: reset with
 * the seed, then step with each scripted response in turn until the episode ends. With a list, a
 * response left over after the episode ended is an error (the script and the env disagree); with a
 * single function it answers every turn, up to `maxTurns`. The env is not closed, so a test can
 * look at it afterwards. To play through the chat an agent sees, use `playEpisode` from
 * `@saccade/rollout/testing`.
 *
 * @example
 * const { steps, totalReward } = await runEpisode(env, (_, env) => env.oracleResponse(), { seed: 3 });
 * expect(steps.at(-1)!.terminated).toBe(true);
 */
export async function runEpisode<E extends Env>(env: E, responses: readonly ScriptedResponse<E>[] | ScriptedResponse<E>, options: RunEpisodeOptions = {}): Promise<EpisodeRun> {
  const script = typeof responses === 'string' || typeof responses === 'function' ? undefined : responses;
  const turns = script?.length ?? options.maxTurns ?? 50;
  const reset = await env.reset({ seed: options.seed ?? 0 });
  const steps: StepResult[] = [];
  let observation = reset.observation;
  let done = false;
  for (let turn = 0; turn < turns && !done; turn++) {
    const response = script === undefined ? (responses as ScriptedResponse<E>) : script[turn]!;
    const action = typeof response === 'string' ? response : await response(observation, env);
    const step = await env.step(action);
    steps.push(step);
    observation = step.observation;
    done = step.terminated || step.truncated;
  }
  if (script !== undefined && steps.length < script.length) {
    throw new Error(`expected the episode to take all ${script.length} scripted responses, but it ended after ${steps.length}`);
  }
  return { reset, steps, totalReward: steps.reduce((sum, step) => sum + step.reward, 0), done };
}
