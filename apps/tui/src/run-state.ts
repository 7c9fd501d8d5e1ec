import { lookingLine, sampledLine, truncatedPromptsLine } from '@saccade/runs';
import type { ImageRef, RunEvent, Trajectory } from '@saccade/spec';
import { phasesFromConfig, remainingSeconds, type PhasePlan } from './phase-eta';

/** What the caller knows about the run before (or beyond) its events. */
export interface RunInfo {
  name?: string;
  envId?: string;
  model?: string;
  backend?: string;
  totalSteps?: number;
  /** The phases still to run, in order (SFT, GRPO…), for an ETA that knows their time limits. */
  phases?: PhasePlan[];
  /** The step the first of `phases` started after (a resumed run's phase start; default 0). */
  firstPhaseStart?: number;
}

/** One point of a chart: a training step and the value at it. */
export interface SeriesPoint {
  step: number;
  value: number;
}

/** One chart's data: the training curve and the held-out evaluation points. */
export interface Series {
  train: SeriesPoint[];
  eval: SeriesPoint[];
  /** The sampled held-out evaluation's points (a run with `evalSampling`: `sampledSuccess`, mean@n), beside the greedy ones. */
  sampled?: SeriesPoint[];
}

/** The metrics the UI charts, in the order it shows them. */
export const CHART_NAMES = ['reward', 'success', 'loss', 'kl', 'entropy'] as const;
/** One of CHART_NAMES. */
export type ChartName = (typeof CHART_NAMES)[number];

/**
 * One turn of an episode as the UI shows it: what the agent saw, what it did, and the reward with
 * its terms.
 */
export interface EpisodeTurnView {
  turn: number;
  /** What the agent saw before acting (from the stored trajectory, when there is one). */
  observation?: string;
  images: ImageRef[];
  action?: string;
  reward: number;
  rewardTerms: Record<string, number>;
}

/**
 * An episode as the UI shows it, filled from its events and, when stored, its trajectory: its
 * prompt, turns and outcome.
 */
export interface EpisodeView {
  id: string;
  envId?: string;
  seed?: number | null;
  step?: number;
  turns: EpisodeTurnView[];
  totalReward?: number;
  success?: boolean;
  terminated?: boolean;
  truncated?: boolean;
  done: boolean;
  /** The question or the state text of the first observation (from the stored trajectory). */
  prompt?: string;
  promptImages: ImageRef[];
  /** The observation after the last step, where tool results of the last turn show. */
  finalObservation?: string;
}

/** A `log` event as the log pane shows it. */
export interface LogLine {
  time: string;
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
}

/**
 * Where the run is: waiting for `run-start`, running, or ended (completed, failed or cancelled,
 * from `run-end`).
 */
export type RunStatus = 'waiting' | 'running' | 'completed' | 'failed' | 'cancelled';

/**
 * Everything the UI shows, folded from run events by reduceRunState: status, step and timing, chart
 * series, recent episodes and the log.
 */
export interface RunState {
  info: RunInfo;
  status: RunStatus;
  step: number;
  /** Time of `run-start`, in ms since the epoch. */
  startedAt?: number;
  /** Time of the newest event, in ms since the epoch. */
  lastEventAt?: number;
  /** Time of the current phase's first `update-end` and its step, for the rate behind the ETA. */
  firstUpdate?: { step: number; at: number };
  /** Which of `info.phases` runs: a phase's clock (`update-end` metrics' `seconds`) starts again at 0. */
  phaseIndex?: number;
  /** The step the current phase started after, once it is a later phase. */
  phaseStartStep?: number;
  /** The current phase's own clock at its newest update. */
  phaseSeconds?: number;
  /** Time of the newest `update-end` (ms). */
  lastUpdateAt?: number;
  series: Record<ChartName, Series>;
  tokensPerSecond?: number;
  episodesPerSecond?: number;
  /** The newest update's mean |sampler − trainer| log-prob gap (`logprobGap`): ~1e-6 when they agree. */
  logprobGap?: number;
  /** The newest rollout's fraction of groups whose episodes all scored alike (no signal for GRPO). */
  uniformGroups?: number;
  /** End times of recent episodes (ms), for episodes/s when the run reports no rate itself. */
  recentEpisodeEnds: number[];
  episodesDone: number;
  /** Newest last; at most `MAX_EPISODES`. */
  episodes: EpisodeView[];
  log: LogLine[];
  lastCheckpoint?: { step: number; path: string };
  error?: string;
}

export const MAX_EPISODES = 50;
export const MAX_LOG_LINES = 200;
/** Points kept per series; older ones are thinned so a long run stays cheap to draw. */
export const MAX_POINTS = 2000;
const RATE_WINDOW = 100;

/**
 * Metric names each chart reads, in order of preference: trainers name things differently
 * (`meanReward` in evaluation, `reward` or `rewardMean` in rollouts, `kl` or `approxKl`).
 */
const METRIC_NAMES: Record<ChartName, readonly string[]> = {
  reward: ['meanReward', 'reward', 'rewardMean', 'reward_mean', 'meanReturn'],
  success: ['success', 'successRate', 'success_rate'],
  loss: ['loss', 'policyLoss', 'policy_loss'],
  kl: ['kl', 'approxKl', 'approx_kl', 'klDivergence'],
  entropy: ['entropy', 'policyEntropy'],
};

/** The state before any event: waiting, step 0, empty charts, episodes and log. */
export function initialRunState(info: RunInfo = {}): RunState {
  const series = {} as Record<ChartName, Series>;
  for (const name of CHART_NAMES) series[name] = { train: [], eval: [] };
  return { info: { ...info }, status: 'waiting', step: 0, series, recentEpisodeEnds: [], episodesDone: 0, episodes: [], log: [] };
}

/** Folds one run event into the state. Pure: returns a new state and never mutates the old one. */
export function reduceRunState(state: RunState, event: RunEvent): RunState {
  const at = Date.parse(event.time);
  const next: RunState = { ...state, lastEventAt: Number.isFinite(at) ? Math.max(at, state.lastEventAt ?? at) : state.lastEventAt };
  if ('step' in event && typeof event.step === 'number' && event.type !== 'episode-start' && event.type !== 'turn-end' && event.type !== 'episode-end') {
    next.step = Math.max(next.step, event.step);
  }
  switch (event.type) {
    case 'run-start': {
      next.status = 'running';
      if (Number.isFinite(at)) next.startedAt = at;
      next.step = event.step ?? 0;
      next.info = { ...infoFromConfig(event.config), ...withoutUndefined(state.info), name: state.info.name ?? event.runName };
      return withLog(next, event.time, 'info', `run ${event.runName} started${event.step ? ` at step ${event.step}` : ''}`);
    }
    case 'run-end': {
      next.status = event.status;
      if (event.error) next.error = `${event.error.name}: ${event.error.message}`;
      const level = event.status === 'failed' ? 'error' : 'info';
      return withLog(next, event.time, level, `run ${event.status}${event.error ? `: ${event.error.message}` : ''}`);
    }
    case 'update-end': {
      if (Number.isFinite(at)) {
        const seconds = finite(event.metrics.seconds) ? event.metrics.seconds : undefined;
        if (seconds !== undefined && state.phaseSeconds !== undefined && seconds < state.phaseSeconds) {
          // A new phase (GRPO after SFT): its steps cost differently, so its rate starts afresh.
          next.phaseIndex = (state.phaseIndex ?? 0) + 1;
          next.phaseStartStep = event.step - 1;
          next.firstUpdate = { step: event.step, at };
        } else if (state.firstUpdate === undefined || event.step < state.firstUpdate.step) next.firstUpdate = { step: event.step, at };
        if (seconds !== undefined) next.phaseSeconds = seconds;
        next.lastUpdateAt = Math.max(at, state.lastUpdateAt ?? at);
      }
      next.series = addPoints(state.series, 'train', event.step, event.metrics, ['loss', 'kl', 'entropy', 'reward', 'success']);
      if (finite(event.metrics.tokensPerSecond)) next.tokensPerSecond = event.metrics.tokensPerSecond;
      if (finite(event.metrics.logprobGap)) next.logprobGap = event.metrics.logprobGap;
      return next;
    }
    case 'rollout-end': {
      const metrics = { ...event.metrics };
      // A rollout that reports no mean reward or success gets them from its episodes' events.
      const fromEpisodes = state.episodes.filter((episode) => episode.done && episode.step === event.step);
      if (pick(metrics, 'reward') === undefined && fromEpisodes.length > 0) {
        metrics.meanReward = fromEpisodes.reduce((sum, episode) => sum + (episode.totalReward ?? 0), 0) / fromEpisodes.length;
      }
      const withSuccess = fromEpisodes.filter((episode) => episode.success !== undefined);
      if (pick(metrics, 'success') === undefined && withSuccess.length > 0) {
        metrics.success = withSuccess.filter((episode) => episode.success).length / withSuccess.length;
      }
      next.series = addPoints(state.series, 'train', event.step, metrics, ['reward', 'success', 'kl', 'entropy']);
      if (finite(metrics.episodesPerSecond)) next.episodesPerSecond = metrics.episodesPerSecond;
      if (finite(metrics.uniformGroups)) next.uniformGroups = metrics.uniformGroups;
      if (finite(metrics.tokensPerSecond)) next.tokensPerSecond = metrics.tokensPerSecond;
      return next;
    }
    case 'eval-end': {
      next.series = addPoints(addPoints(state.series, 'eval', event.step, event.metrics, CHART_NAMES), 'sampled', event.step, sampledAsGreedyNames(event.metrics), CHART_NAMES);
      const parts = [
        finite(event.metrics.success) ? `success ${(event.metrics.success * 100).toFixed(1)}%` : undefined,
        sampledLine(event.metrics),
        finite(event.metrics.meanReward) ? `mean reward ${event.metrics.meanReward.toFixed(2)}` : undefined,
        finite(event.metrics.episodes) ? `${event.metrics.episodes} episodes` : undefined,
        truncatedPromptsLine(event.metrics),
        lookingLine(event.metrics),
      ].filter(Boolean);
      return withLog(next, event.time, 'info', `eval @ step ${event.step}: ${parts.join(', ')}`);
    }
    case 'checkpoint-saved':
      next.lastCheckpoint = { step: event.step, path: event.path };
      return withLog(next, event.time, 'info', `checkpoint saved: ${event.path}`);
    case 'log': {
      const backend = event.data?.backend;
      if (typeof backend === 'string' && next.info.backend === undefined) next.info = { ...next.info, backend };
      return withLog(next, event.time, event.level, event.message);
    }
    case 'episode-start':
      return upsertEpisode(next, event.episodeId, (episode) => ({
        ...episode,
        envId: event.envId,
        seed: event.seed,
        ...(event.step === undefined ? {} : { step: event.step }),
      }));
    case 'turn-end':
      return upsertEpisode(next, event.episodeId, (episode) => {
        const turns = episode.turns.filter((turn) => turn.turn !== event.turn);
        const known = episode.turns.find((turn) => turn.turn === event.turn);
        turns.push({
          turn: event.turn,
          images: known?.images ?? [],
          ...(known?.observation === undefined ? {} : { observation: known.observation }),
          ...(event.action === undefined ? (known?.action === undefined ? {} : { action: known.action }) : { action: event.action }),
          reward: event.reward,
          rewardTerms: event.rewardTerms ?? known?.rewardTerms ?? {},
        });
        turns.sort((a, b) => a.turn - b.turn);
        return { ...episode, turns, ...(event.step === undefined ? {} : { step: event.step }) };
      });
    case 'episode-end': {
      const ended = upsertEpisode(next, event.episodeId, (episode) => ({
        ...episode,
        totalReward: event.totalReward,
        terminated: event.terminated,
        truncated: event.truncated,
        ...(event.success === undefined ? {} : { success: event.success }),
        ...(event.step === undefined ? {} : { step: event.step }),
        done: true,
      }));
      ended.episodesDone = state.episodesDone + 1;
      if (Number.isFinite(at)) ended.recentEpisodeEnds = [...state.recentEpisodeEnds, at].slice(-RATE_WINDOW);
      const ends = ended.recentEpisodeEnds;
      const span = ends.length > 1 ? (ends[ends.length - 1]! - ends[0]!) / 1000 : 0;
      if (span > 0) ended.episodesPerSecond = (ends.length - 1) / span;
      return ended;
    }
  }
}

/**
 * Merges a stored trajectory (`trajectories/*.jsonl`) into the episode with the same id: it adds
 * what events do not carry, the observations (question, tool results) and their images.
 */
export function addTrajectory(state: RunState, trajectory: Trajectory): RunState {
  const next = upsertEpisode(state, trajectory.id, (episode) => {
    const turns: EpisodeTurnView[] = trajectory.turns.map((turn, index) => {
      const known = episode.turns.find((view) => view.turn === index);
      return {
        turn: index,
        observation: turn.observation.text,
        images: turn.observation.images,
        action: turn.action,
        reward: turn.reward,
        rewardTerms: turn.rewardTerms,
        ...(known ? { reward: known.reward, rewardTerms: { ...turn.rewardTerms, ...known.rewardTerms } } : {}),
      };
    });
    const first = trajectory.turns[0]?.observation ?? trajectory.finalObservation;
    const success = trajectory.turns.at(-1)?.info.success ?? (trajectory.turns.at(-1)?.info.metrics as Record<string, unknown> | undefined)?.success;
    return {
      ...episode,
      envId: episode.envId ?? trajectory.envId,
      seed: episode.seed ?? trajectory.seed,
      turns,
      totalReward: episode.totalReward ?? trajectory.totalReward,
      terminated: trajectory.terminated,
      truncated: trajectory.truncated,
      ...(episode.success === undefined && typeof success === 'boolean' ? { success } : {}),
      done: true,
      ...(first ? { prompt: first.text, promptImages: first.images } : {}),
      ...(trajectory.finalObservation ? { finalObservation: trajectory.finalObservation.text } : {}),
    };
  }, true);
  return next;
}

/**
 * Seconds left: the current phase at its rate from its updates alone (data collection before step 1
 * would skew it), within its time limit, then the later phases (see remainingSeconds).
 */
export function etaSeconds(state: RunState): number | undefined {
  const total = state.info.totalSteps;
  const phases = state.info.phases ?? (total === undefined ? undefined : [{ steps: total }]);
  const first = state.firstUpdate;
  if (phases === undefined || phases.length === 0 || first === undefined || state.lastUpdateAt === undefined) return undefined;
  const steps = state.step - first.step;
  if (steps <= 0) return undefined;
  const secondsPerStep = (state.lastUpdateAt - first.at) / 1000 / steps;
  const index = state.phaseIndex ?? 0;
  // More phases than the plan knows (a plan of one total): the steps left of the total, at the newest rate.
  const left =
    index < phases.length
      ? remainingSeconds(phases, {
          index,
          startStep: index > 0 ? (state.phaseStartStep ?? 0) : (state.info.firstPhaseStart ?? 0),
          step: state.step,
          seconds: state.phaseSeconds ?? 0,
          secondsPerStep,
        })
      : remainingSeconds([{ steps: total ?? phases.reduce((sum, phase) => sum + phase.steps, 0) }], { index: 0, startStep: 0, step: state.step, seconds: 0, secondsPerStep });
  return left === undefined ? undefined : Math.max(0, left);
}

/** The run's elapsed seconds: up to `now` while it runs, up to its last event once it ended. */
export function elapsedSeconds(state: RunState, now: number): number | undefined {
  if (state.startedAt === undefined) return undefined;
  const end = state.status === 'running' ? Math.max(now, state.lastEventAt ?? now) : (state.lastEventAt ?? now);
  return Math.max(0, (end - state.startedAt) / 1000);
}

function infoFromConfig(config: unknown): RunInfo {
  const info: RunInfo = {};
  if (!isRecord(config)) return info;
  const env = config.env;
  const envId = isRecord(env) ? env.id : (config.envId ?? env);
  if (typeof envId === 'string') info.envId = envId;
  const model = config.model;
  const modelName = isRecord(model) ? (model.name ?? model.preset ?? model.id) : model;
  if (typeof modelName === 'string') info.model = modelName;
  if (typeof config.backend === 'string') info.backend = config.backend;
  // `saccade train`'s config: SFT, then its algorithm's phase, each with steps and a time limit.
  const phases = phasesFromConfig(config);
  if (phases !== undefined && (isRecord(config.sft) || isRecord(config.grpo) || isRecord(config.ppo))) {
    info.phases = phases;
    info.totalSteps = phases.reduce((sum, phase) => sum + phase.steps, 0);
    return info;
  }
  // Other trainers keep their step budget under their own section (`trainer.steps`, …).
  for (const section of [config, config.sft, config.grpo, config.ppo, config.trainer, config.training]) {
    if (isRecord(section) && typeof section.steps === 'number') {
      info.totalSteps = section.steps;
      break;
    }
  }
  return info;
}

function addPoints(
  series: Record<ChartName, Series>,
  kind: 'train' | 'eval' | 'sampled',
  step: number,
  metrics: Record<string, number>,
  charts: readonly ChartName[],
): Record<ChartName, Series> {
  let next = series;
  for (const chart of charts) {
    const value = pick(metrics, chart);
    if (value === undefined) continue;
    if (next === series) next = { ...series };
    const points = (next[chart][kind] ?? []).filter((point) => point.step !== step);
    points.push({ step, value });
    if (points.length > 1 && points[points.length - 2]!.step > step) points.sort((a, b) => a.step - b.step);
    next[chart] = { ...next[chart], [kind]: points.length > MAX_POINTS ? thin(points) : points };
  }
  return next;
}

/**
 * The sampled evaluation's metrics under the greedy names: an evaluation row reports every metric of
 * its sampled episodes again as `sampled<Metric>` (`sampledSuccess`, `sampledMeanReward`).
 */
function sampledAsGreedyNames(metrics: Record<string, number>): Record<string, number> {
  const sampled: Record<string, number> = {};
  for (const [name, value] of Object.entries(metrics)) {
    const match = /^sampled([A-Z])(.*)$/.exec(name);
    if (match) sampled[`${match[1]!.toLowerCase()}${match[2]}`] = value;
  }
  return sampled;
}

/** Keeps every other point of the older half: the recent curve stays exact. */
function thin(points: SeriesPoint[]): SeriesPoint[] {
  const half = Math.floor(points.length / 2);
  return [...points.slice(0, half).filter((_, index) => index % 2 === 0), ...points.slice(half)];
}

function pick(metrics: Record<string, number>, chart: ChartName): number | undefined {
  for (const name of METRIC_NAMES[chart]) {
    const value = metrics[name];
    if (finite(value)) return value;
  }
  return undefined;
}

function upsertEpisode(state: RunState, id: string, update: (episode: EpisodeView) => EpisodeView, keepPlace = false): RunState {
  const index = state.episodes.findIndex((episode) => episode.id === id);
  const current: EpisodeView = index >= 0 ? state.episodes[index]! : { id, turns: [], done: false, promptImages: [] };
  const updated = update(current);
  let episodes: EpisodeView[];
  if (index >= 0) {
    episodes = [...state.episodes];
    episodes[index] = updated;
  } else if (keepPlace && state.episodes.length >= MAX_EPISODES) {
    // A trajectory older than every episode shown is not worth evicting a newer one.
    return state;
  } else {
    episodes = [...state.episodes, updated].slice(-MAX_EPISODES);
  }
  return { ...state, episodes };
}

function withLog(state: RunState, time: string, level: LogLine['level'], message: string): RunState {
  return { ...state, log: [...state.log, { time, level, message }].slice(-MAX_LOG_LINES) };
}

function finite(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}
