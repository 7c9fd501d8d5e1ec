import { randomUUID } from 'node:crypto';
import { makeEnv, PROMPT_VIEWS, summarizeEpisodes, type PromptView } from '@saccade/core';
import { InvalidArgumentError, type Agent, type Env, type ImageData, type RunEvent, type Trajectory } from '@saccade/spec';
import { runEpisode, type EpisodeContext, type EpisodeSettings, type RolloutPrompt, type SamplingOptions } from './run-episode';
import type { TrajectoryStore } from './trajectory-store';
import { createLockstep, isBatchAgent, type Lockstep } from './lockstep-agent';

/**
 * What every batch of a rollout manager shares: the agent, concurrency, turn cap, prompt history
 * and view, retries, sampling, how envs are made, where trajectories go, and the progress events.
 */
export interface RolloutSettings {
  /** The agent every episode uses, or a factory called once per episode (e.g. an oracle bound to its env). */
  agent: Agent | ((context: EpisodeContext) => Agent | Promise<Agent>);
  /** Episodes in flight at once. Default 64. */
  concurrency?: number;
  /** Turn cap per episode (an episode cut off here is truncated). Default 32; the env's own time limit applies too. */
  maxTurns?: number;
  /** Earlier turns each prompt keeps (VAGEN's `window_size`; 5 in its runs). Default: all. */
  historyWindow?: number;
  /** What of the env's text the prompts keep: `'full'` (default) or `'image'` (images only; see buildMessages). */
  view?: PromptView;
  /**
   * Play an agent that has `actBatch` in lock step (default true): episodes go in waves of
   * `concurrency`, and each round of a wave is one `actBatch` call for every live episode.
   */
  lockstep?: boolean;
  /** Extra tries for a failing `agent.act` call. Default 0 (HTTP agents retry on their own). */
  agentRetries?: number;
  /** Delay before the first retry, doubled for each further one. Default 100 ms. */
  retryDelayMs?: number;
  /** Sampling settings for every `agent.act` call. */
  sampling?: SamplingOptions;
  /** Creates an episode's env. Default: `makeEnv(prompt.envId, prompt.envOptions)` from the registry. */
  createEnv?: (prompt: RolloutPrompt) => Env | Promise<Env>;
  /** Each finished trajectory is appended here (with its images) before its slot is freed. */
  store?: TrajectoryStore;
  /** Called with each finished episode, after the store. */
  onTrajectory?: (trajectory: Trajectory, images: ReadonlyMap<string, ImageData>) => void | Promise<void>;
  /** Progress: `episode-start`, `turn-end`, `episode-end`, then one `rollout-end`. */
  onEvent?: (event: RunEvent) => void;
}

/**
 * One batch for a rollout manager: the prompts, episodes per prompt, the training step and ids it
 * is tagged with, a seed, and an abort signal.
 */
export interface RolloutRequest {
  prompts: readonly RolloutPrompt[];
  /** Episodes per prompt, all with the prompt's seed and one group id (GRPO's G). Default 1. */
  groupSize?: number;
  /** The training step, put on every event. Default 0 on `rollout-end`, absent elsewhere. */
  step?: number;
  /** Prefix of the group and episode ids. Default: a random one, so ids stay unique across batches. */
  batchId?: string;
  /** Stops starting episodes and ends those in flight (recorded as failed with the abort's reason). */
  signal?: AbortSignal;
  /** Seed of the sampler for lock-step rounds (round r of the batch samples with `seed + r`): same seed, same episodes. */
  seed?: number;
}

/**
 * What a batch played: its trajectories and their images, the `rollout-end` metrics, and whether it
 * was cancelled.
 */
export interface RolloutResult {
  /** One per episode, in prompt order then sample order; failed episodes carry `error`. */
  trajectories: Trajectory[];
  /** Image bytes by hash, for every image the trajectories refer to. */
  images: Map<string, ImageData>;
  /** The `rollout-end` metrics. */
  metrics: Record<string, number>;
  /** True when the signal stopped the batch; episodes that never started are absent. */
  cancelled: boolean;
}

/**
 * Plays batches of episodes with fixed settings; `createRolloutManager` makes one, and a trainer
 * calls `run` once a step.
 */
export interface RolloutManager {
  readonly settings: Readonly<RolloutSettings>;
  run(request: RolloutRequest): Promise<RolloutResult>;
}

/**
 * A rollout manager: fixed settings (agent, concurrency, store, …) for many batches.
 *
 * @example
 * const manager = createRolloutManager({ agent, concurrency: 64, maxTurns: 3, store });
 * const { trajectories, metrics } = await manager.run({ prompts: [{ envId: 'saccade/FrozenLake-v1', seed: 0 }], groupSize: 8 });
 */
export function createRolloutManager(settings: RolloutSettings): RolloutManager {
  const resolved = resolveSettings(settings);
  return { settings, run: (request) => runBatch(resolved, settings, request) };
}

/** One batch with its own settings: `createRolloutManager(settings).run(request)`. */
export async function runRollouts(options: RolloutSettings & RolloutRequest): Promise<RolloutResult> {
  return createRolloutManager(options).run(options);
}

interface ResolvedSettings {
  concurrency: number;
  maxTurns: number;
  historyWindow: number;
  view: PromptView;
  lockstep: boolean;
  agentRetries: number;
  retryDelayMs: number;
  createEnv: (prompt: RolloutPrompt) => Env | Promise<Env>;
}

function resolveSettings(settings: RolloutSettings): ResolvedSettings {
  if (typeof settings !== 'object' || settings === null) {
    throw new InvalidArgumentError({ argument: 'settings', expected: 'an object with an agent', value: settings });
  }
  const agent = settings.agent;
  if (typeof agent !== 'function' && (typeof agent !== 'object' || agent === null || typeof agent.act !== 'function')) {
    throw new InvalidArgumentError({ argument: 'agent', expected: 'an Agent or a function (context) => Agent', value: agent });
  }
  return {
    concurrency: integerAtLeast(settings.concurrency ?? 64, 1, 'concurrency', true),
    maxTurns: integerAtLeast(settings.maxTurns ?? 32, 1, 'maxTurns', true),
    historyWindow: integerAtLeast(settings.historyWindow ?? Infinity, 0, 'historyWindow', true),
    view: checkView(settings.view ?? 'full'),
    lockstep: settings.lockstep ?? true,
    agentRetries: integerAtLeast(settings.agentRetries ?? 0, 0, 'agentRetries', false),
    retryDelayMs: nonNegative(settings.retryDelayMs ?? 100, 'retryDelayMs'),
    createEnv: settings.createEnv ?? ((prompt) => makeEnv(prompt.envId, prompt.envOptions ?? {})),
  };
}

async function runBatch(resolved: ResolvedSettings, settings: RolloutSettings, request: RolloutRequest): Promise<RolloutResult> {
  const prompts = checkPrompts(request?.prompts);
  const groupSize = integerAtLeast(request.groupSize ?? 1, 1, 'groupSize', false);
  const batchId = request.batchId ?? randomUUID().slice(0, 8);
  const { signal, step } = request;
  const onEvent = settings.onEvent;
  const episodeSettings: EpisodeSettings = {
    agent: settings.agent,
    createEnv: resolved.createEnv,
    maxTurns: resolved.maxTurns,
    historyWindow: resolved.historyWindow,
    view: resolved.view,
    agentRetries: resolved.agentRetries,
    retryDelayMs: resolved.retryDelayMs,
    sampling: settings.sampling ?? {},
    emit: (event) => {
      // A listener's error must not fail the episode that reported progress.
      try {
        onEvent?.(event);
      } catch {
        /* ignored */
      }
    },
    step,
    signal,
  };
  const total = prompts.length * groupSize;
  const slots: (Trajectory | undefined)[] = new Array(total);
  const images = new Map<string, ImageData>();
  const started = performance.now();
  let next = 0;
  // Set when the store or onTrajectory fails: no new episode starts, and the batch rejects with it.
  let failure: { error: unknown } | undefined;
  const playAndStore = async (index: number, lockstep: { wave: Lockstep; member: number } | undefined): Promise<boolean> => {
    const promptIndex = Math.floor(index / groupSize);
    const sampleIndex = index % groupSize;
    const prompt = prompts[promptIndex] as RolloutPrompt;
    const groupId = `${batchId}-${promptIndex}`;
    const context = { episodeId: `${groupId}-${sampleIndex}`, groupId, prompt, promptIndex, sampleIndex };
    let result;
    try {
      result = await runEpisode(context, lockstep ? { ...episodeSettings, agent: lockstep.wave.agentFor(lockstep.member) } : episodeSettings);
    } finally {
      lockstep?.wave.leave(lockstep.member);
    }
    for (const [hash, image] of result.images) if (!images.has(hash)) images.set(hash, image);
    try {
      await settings.store?.append(result.trajectory, result.images);
      await settings.onTrajectory?.(result.trajectory, result.images);
    } catch (error) {
      failure ??= { error };
      return false;
    }
    slots[index] = result.trajectory;
    return true;
  };
  // A worker pool: each worker takes the next episode when its last one is stored.
  const worker = async (): Promise<void> => {
    while (next < total && !signal?.aborted && failure === undefined) {
      if (!(await playAndStore(next++, undefined))) return;
    }
  };
  const agent = settings.agent;
  if (resolved.lockstep && isBatchAgent(agent)) {
    // Waves of `concurrency` episodes, each played in lock step: one actBatch call per round.
    let rounds = 0;
    for (let start = 0; start < total && !signal?.aborted && failure === undefined; start += resolved.concurrency) {
      const size = Math.min(resolved.concurrency, total - start);
      const wave = createLockstep(agent, size, request.seed, rounds);
      await Promise.all(Array.from({ length: size }, (_, member) => playAndStore(start + member, { wave, member })));
      rounds += wave.rounds;
    }
  } else {
    await Promise.all(Array.from({ length: Math.min(resolved.concurrency, total) }, worker));
  }
  if (failure !== undefined) throw failure.error;
  const trajectories = slots.filter((trajectory): trajectory is Trajectory => trajectory !== undefined);
  const metrics = rolloutMetrics(trajectories, performance.now() - started);
  onEvent?.({ type: 'rollout-end', time: new Date().toISOString(), step: step ?? 0, episodes: trajectories.length, metrics });
  return { trajectories, images, metrics, cancelled: signal?.aborted === true };
}

/** Batch metrics, named as the TUI reads them (`meanReward`, `success`, `episodesPerSecond`, …). */
export function rolloutMetrics(trajectories: readonly Trajectory[], durationMs: number): Record<string, number> {
  const { episodes, failed, meanReward, success, turns, meanTurns } = summarizeEpisodes(trajectories);
  let agentMs = 0;
  let envMs = 0;
  for (const trajectory of trajectories) {
    for (const turn of trajectory.turns) {
      agentMs += turn.timing.agentMs;
      envMs += turn.timing.envMs;
    }
  }
  const seconds = durationMs / 1000;
  return {
    episodes,
    failed,
    meanReward,
    success,
    meanTurns,
    meanAgentMs: turns === 0 ? 0 : agentMs / turns,
    meanEnvMs: turns === 0 ? 0 : envMs / turns,
    durationMs,
    episodesPerSecond: seconds > 0 ? episodes / seconds : 0,
    turnsPerSecond: seconds > 0 ? turns / seconds : 0,
  };
}

function checkPrompts(prompts: unknown): RolloutPrompt[] {
  if (!Array.isArray(prompts)) {
    throw new InvalidArgumentError({ argument: 'prompts', expected: 'an array of { envId, seed, envOptions }', value: prompts });
  }
  prompts.forEach((prompt: unknown, index) => {
    const candidate = prompt as Partial<RolloutPrompt> | null;
    if (typeof candidate !== 'object' || candidate === null || typeof candidate.envId !== 'string' || candidate.envId.length === 0) {
      throw new InvalidArgumentError({ argument: `prompts[${index}]`, expected: 'an object with an envId string', value: prompt });
    }
    const seed = candidate.seed;
    if (seed !== undefined && seed !== null && !Number.isSafeInteger(seed)) {
      throw new InvalidArgumentError({ argument: `prompts[${index}].seed`, expected: 'an integer or null', value: seed });
    }
  });
  return prompts as RolloutPrompt[];
}

function checkView(view: unknown): PromptView {
  if (PROMPT_VIEWS.includes(view as PromptView)) return view as PromptView;
  throw new InvalidArgumentError({ argument: 'view', expected: PROMPT_VIEWS.map((name) => `'${name}'`).join(' | '), value: view });
}

function integerAtLeast(value: number, minimum: number, argument: string, allowInfinity: boolean): number {
  if ((allowInfinity && value === Infinity) || (Number.isSafeInteger(value) && value >= minimum)) return value;
  throw new InvalidArgumentError({ argument, expected: `an integer ≥ ${minimum}${allowInfinity ? ' or Infinity' : ''}`, value });
}

function nonNegative(value: number, argument: string): number {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  throw new InvalidArgumentError({ argument, expected: 'a finite number ≥ 0', value });
}
