import { envFactory } from '../env-factory';
import { episodeEndEvent } from '@saccade/core';
import { openTrajectoryStore, runRollouts, type RolloutPrompt, type TrajectoryStore } from '@saccade/rollout';
import type { Env, RunEvent, Trajectory } from '@saccade/spec';
import type { RunFolder } from '@saccade/runs';
import type { EvalAgent } from './eval-agent';
import type { EvalConfig } from './eval-config';
import { episodeKey, episodeOf, TRAJECTORY_FILES } from '@saccade/runs';

export interface RunEvalOptions {
  emit: (event: RunEvent) => void;
  /** Called once per episode stored by this process. */
  onEpisode?: (trajectory: Trajectory) => void;
  signal?: AbortSignal;
}

export interface EvalPlan {
  store: TrajectoryStore;
  /** The run's episodes in order (seed, then sample). */
  prompts: RolloutPrompt[];
  /** Keys of the episodes the store already holds (a resumed eval skips them). */
  done: Set<string>;
}

/** The path of an eval's trajectory file inside its run folder. */
export function trajectoriesPath(folder: RunFolder): string {
  return folder.trajectoriesPath(TRAJECTORY_FILES.episodes);
}

/** Creates an episode's env: the registry's, with the eval's turn cap and tools (and, from --env-from, the run's looking oracle). */
export function evalEnvFactory(config: EvalConfig): (prompt: RolloutPrompt) => Env {
  return envFactory({ tools: config.tools, ...(config.maxTurns === undefined ? {} : { maxTurns: config.maxTurns }), ...(config.lookingOracle === undefined ? {} : { lookingOracle: config.lookingOracle }) });
}

/**
 * Opens the run's trajectory store (cutting a torn last line a kill left) and lists the episodes
 * still to play: every (seed, sample) the config plans that the store does not hold, or holds only
 * as an episode that stopped on an error (a server gone, a crashed env): resume plays those again.
 */
export async function planEval(config: EvalConfig, folder: RunFolder): Promise<EvalPlan> {
  const store = await openTrajectoryStore({ path: trajectoriesPath(folder) });
  const done = new Set<string>();
  for await (const trajectory of store.read({ skipInvalid: true })) {
    const episode = episodeOf(trajectory);
    if (episode !== undefined && trajectory.error === undefined) done.add(episodeKey(episode.seed, episode.sample));
  }
  const prompts: RolloutPrompt[] = [];
  for (let seed = config.seed; seed < config.seed + config.episodes; seed++) {
    for (let sample = 0; sample < config.samples; sample++) {
      prompts.push({ envId: config.env.id, seed, envOptions: config.env.options, metadata: { evalSeed: seed, sample } });
    }
  }
  return { store, prompts, done };
}

/** Plays the episodes the store does not hold yet; each is stored as soon as it ends. */
export async function runEval(config: EvalConfig, plan: EvalPlan, agent: EvalAgent, options: RunEvalOptions): Promise<{ cancelled: boolean }> {
  const { store, done } = plan;
  const pending = plan.prompts.filter((prompt) => !done.has(episodeKey(prompt.seed ?? 0, Number(prompt.metadata?.['sample'] ?? 0))));
  if (pending.length === 0) return { cancelled: false };
  const result = await runRollouts({
    prompts: pending,
    agent: agent.shared ?? agent.forEpisode,
    concurrency: config.concurrency,
    ...(agent.prompt ?? {}),
    ...(config.maxTurns === undefined ? {} : { maxTurns: config.maxTurns }),
    createEnv: evalEnvFactory(config),
    ...(options.signal ? { signal: options.signal } : {}),
    onEvent: (event) => {
      // episode-end is written once its trajectory is stored (below), so that events.jsonl never
      // reports an episode a kill lost; turns are in the trajectories.
      if (event.type === 'episode-start') options.emit(event);
    },
    onTrajectory: async (trajectory, images) => {
      // An episode cut short by Ctrl-C is not a result: it is left out and played on --resume.
      if (options.signal?.aborted && trajectory.error !== undefined) return;
      await store.append(trajectory, images);
      options.emit(episodeEndEvent(trajectory));
      options.onEpisode?.(trajectory);
    },
  });
  return { cancelled: result.cancelled };
}

/**
 * The stored episodes, one per (seed, sample), in plan order: the first line of a key wins, except
 * that an episode played to its end replaces one that stopped on an error (a resume's replay).
 */
export async function readEvalTrajectories(store: TrajectoryStore): Promise<Trajectory[]> {
  const byKey = new Map<string, Trajectory>();
  for await (const trajectory of store.read({ skipInvalid: true })) {
    const episode = episodeOf(trajectory);
    if (episode === undefined) continue;
    const key = episodeKey(episode.seed, episode.sample);
    const stored = byKey.get(key);
    if (stored === undefined || (stored.error !== undefined && trajectory.error === undefined)) byKey.set(key, trajectory);
  }
  return [...byKey.values()].sort((a, b) => {
    const [x, y] = [episodeOf(a)!, episodeOf(b)!];
    return x.seed - y.seed || x.sample - y.sample;
  });
}
