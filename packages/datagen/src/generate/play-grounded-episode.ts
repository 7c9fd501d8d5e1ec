import { restoreObservation, runRollouts, trajectorySteps } from '@saccade/rollout';
import type { Agent, Env, ImageData, StepResult, Trajectory } from '@saccade/spec';

/**
 * Where playGroundedEpisode starts (a seed or a task index), how the agent samples, and an abort
 * signal.
 */
export interface PlayGroundedEpisodeOptions {
  /** Seed of the reset; with `taskIndex` the task is picked by index instead. */
  seed?: number;
  taskIndex?: number;
  temperature?: number;
  maxTokens?: number;
  signal?: AbortSignal;
}

/**
 * playGroundedEpisode's options and how many episodes playGroundedEpisodes plays from the same
 * start.
 */
export interface PlayGroundedEpisodesOptions extends PlayGroundedEpisodeOptions {
  /** Episodes to play from the same start, one after the other (best-of-n's n). Default 1. */
  count?: number;
}

/** A played episode: the chat as the agent saw it (the last feedback left out), its images, and the last step. */
export interface PlayedGroundedEpisode {
  messages: { role: 'system' | 'user' | 'assistant'; content: string }[];
  images: ImageData[];
  /** The agent's responses, each with the forced prefix when one was given. */
  responses: string[];
  final: StepResult;
  /** Generations asked of the agent. */
  generations: number;
}

/** Where a grounded turn ends: its tool call or its answer (ViGoRL's stop strings). */
export const GROUNDED_STOP = ['</tool_call>', '</answer>'] as const;

/**
 * Plays one episode of a grounded env with the rollout manager: each turn the agent answers the
 * chat so far (stopping at `</tool_call>` or `</answer>`); when the env says the crop budget is
 * spent (`info.forcedPrefix`), the agent continues ViGoRL's forced final answer instead of writing
 * a turn of its own. The env stays the caller's (it is not closed). Throws what the env or the
 * agent threw, or the signal's reason.
 */
export async function playGroundedEpisode(env: Env, agent: Agent, options: PlayGroundedEpisodeOptions = {}): Promise<PlayedGroundedEpisode> {
  const [played] = await playGroundedEpisodes(env, agent, { ...options, count: 1 });
  return played!;
}

/**
 * `count` episodes of a grounded env from the same start (seed or task index), played one after
 * the other on the one env, so the agent is asked in the same order as by a loop of
 * playGroundedEpisode (a seeded scripted agent gives the same episodes).
 */
export async function playGroundedEpisodes(env: Env, agent: Agent, options: PlayGroundedEpisodesOptions = {}): Promise<PlayedGroundedEpisode[]> {
  const { seed, taskIndex, temperature, maxTokens, signal, count = 1 } = options;
  // The rollout manager records an error's name and message; the caller gets the error itself.
  let thrown: { error: unknown } | undefined;
  const keep = async <T>(promise: Promise<T>): Promise<T> => {
    try {
      return await promise;
    } catch (error) {
      thrown ??= { error };
      throw error;
    }
  };
  const borrowed: Env = {
    specificationVersion: 'v1',
    id: env.id,
    reset: (resetOptions) => keep(env.reset(resetOptions)),
    step: (action) => keep(env.step(action)),
    systemPrompt: () => env.systemPrompt(),
    close: async () => {},
  };
  const { trajectories, images } = await runRollouts({
    agent: { specificationVersion: 'v1', id: agent.id, act: (actOptions) => keep(agent.act(actOptions)) },
    prompts: [{ envId: env.id, seed: seed ?? null, ...(taskIndex === undefined ? {} : { resetOptions: { taskIndex } }) }],
    groupSize: count,
    // One env: its episodes one at a time.
    concurrency: 1,
    // The env ends its episodes (its own turn limit).
    maxTurns: Infinity,
    createEnv: () => borrowed,
    sampling: { stop: [...GROUNDED_STOP], ...(temperature === undefined ? {} : { temperature }), ...(maxTokens === undefined ? {} : { maxTokens }) },
    ...(signal ? { signal } : {}),
  });
  signal?.throwIfAborted();
  return trajectories.map((trajectory) => {
    if (trajectory.error !== undefined) throw thrown?.error ?? Object.assign(new Error(trajectory.error.message), { name: trajectory.error.name });
    return playedEpisode(trajectory, images);
  });
}

/** A trajectory as the chat the agent saw, with its images' bytes back. */
function playedEpisode(trajectory: Trajectory, images: ReadonlyMap<string, ImageData>): PlayedGroundedEpisode {
  const messages: PlayedGroundedEpisode['messages'] = [{ role: 'system', content: trajectory.systemPrompt ?? '' }];
  for (const turn of trajectory.turns) messages.push({ role: 'user', content: turn.observation.text }, { role: 'assistant', content: turn.action });
  return {
    messages,
    images: trajectory.turns.flatMap((turn) => restoreObservation(turn.observation, images).images),
    responses: trajectory.turns.map((turn) => turn.action),
    final: trajectorySteps(trajectory, images).at(-1)!,
    generations: trajectory.turns.length,
  };
}
