import { summarizeEpisodes, trajectorySuccess } from '@saccade/core';
import type { Trajectory } from '@saccade/spec';

/** z for a two-sided 95 % interval. */
const Z95 = 1.959963984540054;

/**
 * The Wilson score interval of a success rate: unlike the normal approximation it stays inside
 * [0, 1] and is not a zero-width interval at 0 % or 100 % (100/100 gives 96.3–100 %).
 */
export function wilsonInterval(successes: number, trials: number, z = Z95): [number, number] {
  if (trials <= 0) return [0, 1];
  const p = successes / trials;
  const z2 = z * z;
  const centre = (p + z2 / (2 * trials)) / (1 + z2 / trials);
  const half = (z / (1 + z2 / trials)) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/**
 * The unbiased pass@k estimator of Chen et al. (2021): 1 − C(n−c, k) / C(n, k) for n samples of
 * which c are correct, computed as a product so that large n does not overflow.
 */
export function passAtK(samples: number, correct: number, k: number): number {
  if (k > samples) throw new RangeError(`pass@${k} needs at least ${k} samples, got ${samples}`);
  if (samples - correct < k) return 1;
  let allWrong = 1;
  for (let i = samples - correct + 1; i <= samples; i++) allWrong *= 1 - k / i;
  return 1 - allWrong;
}

/** A success rate: episodes, successes, their ratio and its 95 % Wilson interval. */
export interface RateSummary {
  episodes: number;
  successes: number;
  success: number;
  /** 95 % Wilson interval of `success`. */
  interval: [number, number];
}

/** Tool calls over an eval: totals, per episode, episodes with a call, and per tool (calls and invalid ones). */
export interface ToolUseSummary {
  calls: number;
  invalidCalls: number;
  callsPerEpisode: number;
  invalidPerEpisode: number;
  /** Episodes with at least one tool call. */
  episodesWithCalls: number;
  byTool: Record<string, { calls: number; invalid: number }>;
  /**
   * Looking, for tasks that say where their answer is (`targetBox`; null otherwise): episodes with
   * a call whose region held the whole target, their share, success with and without such a look.
   */
  target: TargetLookSummary | null;
}

/** How often the policy's looks found the target, and what finding it was worth. */
export interface TargetLookSummary {
  episodesWithHit: number;
  hitRate: number;
  /** Success among episodes with a hit (null when none hit). */
  successWithHit: number | null;
  /** Success among the others (null when all hit). */
  successWithoutHit: number | null;
  /** Tool calls per successful episode (null when none succeeded). */
  callsPerSolvedEpisode: number | null;
}

interface CallRecord {
  name?: unknown;
  ok?: unknown;
  hit?: unknown;
}

/** Tool calls, invalid calls and looks at the target, from the `toolCalls` records of each turn's info (the tool-use wrapper's). */
export function summarizeToolUse(trajectories: readonly Trajectory[]): ToolUseSummary {
  const tools: ToolUseSummary = { calls: 0, invalidCalls: 0, callsPerEpisode: 0, invalidPerEpisode: 0, episodesWithCalls: 0, byTool: {}, target: null };
  let scored = false;
  const hit = { episodes: 0, successes: 0 };
  const missed = { episodes: 0, successes: 0 };
  const solved = { episodes: 0, calls: 0 };
  for (const trajectory of trajectories) {
    let episodeCalls = 0;
    let episodeHit = false;
    for (const turn of trajectory.turns) {
      if (typeof (turn.info['metrics'] as Record<string, unknown> | undefined)?.['target_hit'] === 'boolean') scored = true;
      const calls = turn.info['toolCalls'];
      if (!Array.isArray(calls)) continue;
      for (const call of calls as CallRecord[]) {
        const name = typeof call?.name === 'string' ? call.name : '(unreadable)';
        const entry = (tools.byTool[name] ??= { calls: 0, invalid: 0 });
        entry.calls++;
        tools.calls++;
        episodeCalls++;
        if (call?.ok !== true) {
          entry.invalid++;
          tools.invalidCalls++;
        }
        if (typeof call?.hit === 'boolean') scored = true;
        if (call?.hit === true) episodeHit = true;
      }
    }
    if (episodeCalls > 0) tools.episodesWithCalls++;
    const success = trajectorySuccess(trajectory);
    const group = episodeHit ? hit : missed;
    group.episodes++;
    if (success) {
      group.successes++;
      solved.episodes++;
      solved.calls += episodeCalls;
    }
  }
  const count = trajectories.length;
  tools.callsPerEpisode = count === 0 ? 0 : tools.calls / count;
  tools.invalidPerEpisode = count === 0 ? 0 : tools.invalidCalls / count;
  if (scored) {
    tools.target = {
      episodesWithHit: hit.episodes,
      hitRate: count === 0 ? 0 : hit.episodes / count,
      successWithHit: hit.episodes === 0 ? null : hit.successes / hit.episodes,
      successWithoutHit: missed.episodes === 0 ? null : missed.successes / missed.episodes,
      callsPerSolvedEpisode: solved.episodes === 0 ? null : solved.calls / solved.episodes,
    };
  }
  return tools;
}

/** What `summarizeEval` returns and an eval's summary.json holds: accuracy with its interval, failures, mean reward and turns, format rate, per-family rates, pass@k and tool use. */
export interface EvalSummary extends RateSummary {
  /** Episodes that stopped on an error (agent or env); they count as failures. */
  failed: number;
  meanReward: number;
  meanTurns: number;
  /** Fraction of turns whose response was well formed, over the turns that report it. */
  formatRate: number | null;
  /** By task family (`info.taskFamily`, else the env id), sorted by name. */
  families: Record<string, RateSummary>;
  /** Mean over seeds of the unbiased estimator, for k = 1 … samples (only with several samples). */
  passAtK?: Record<string, number>;
  /** How the episodes ended (they add up to `episodes`). */
  endings: EpisodeEndings;
  /** Seeds none of whose samples succeeded, ascending: the tasks the agent cannot do at all. */
  neverSolved: number[];
  tools: ToolUseSummary;
}

/**
 * How episodes ended: solved; ended by the env without success (FrozenLake: a hole; a wrong
 * answer); cut by the turn limit (`truncated`, Gymnasium's word); stopped on an error.
 */
export interface EpisodeEndings {
  success: number;
  terminated: number;
  truncated: number;
  errored: number;
}

/** The ending of one episode (see EpisodeEndings); an episode whose last turn neither terminated nor truncated counts as truncated (it stopped without the env ending it). */
export function episodeEnding(trajectory: Trajectory): keyof EpisodeEndings {
  if (trajectory.error !== undefined) return 'errored';
  if (trajectorySuccess(trajectory)) return 'success';
  return trajectory.turns.at(-1)?.terminated === true ? 'terminated' : 'truncated';
}

/** The key an eval episode is stored and resumed under. */
export function episodeKey(seed: number, sample: number): string {
  return `${seed}:${sample}`;
}

/** What an eval trajectory says about its episode: its seed and sample (set by the eval command). */
export function episodeOf(trajectory: Trajectory): { seed: number; sample: number } | undefined {
  const metadata = trajectory.metadata ?? {};
  const seed = metadata['evalSeed'];
  const sample = metadata['sample'];
  return typeof seed === 'number' && typeof sample === 'number' ? { seed, sample } : undefined;
}

function rate(successes: number, episodes: number): RateSummary {
  return { episodes, successes, success: episodes === 0 ? 0 : successes / episodes, interval: wilsonInterval(successes, episodes) };
}

/** The task family of an episode: what VQA envs put in `info.taskFamily`, else the env id. */
export function taskFamily(trajectory: Trajectory): string {
  for (let index = trajectory.turns.length - 1; index >= 0; index--) {
    const family = trajectory.turns[index]?.info['taskFamily'];
    if (typeof family === 'string' && family.length > 0) return family;
  }
  return trajectory.envId;
}

/** Accuracy with its interval, per family, pass@k and tool use over an eval's trajectories. */
export function summarizeEval(trajectories: readonly Trajectory[], samples: number): EvalSummary {
  const episodes = summarizeEpisodes(trajectories);
  const families = new Map<string, { episodes: number; successes: number }>();
  const bySeed = new Map<number, { samples: number; correct: number }>();
  const endings: EpisodeEndings = { success: 0, terminated: 0, truncated: 0, errored: 0 };
  for (const trajectory of trajectories) {
    const success = trajectorySuccess(trajectory);
    endings[episodeEnding(trajectory)]++;
    const family = families.get(taskFamily(trajectory)) ?? { episodes: 0, successes: 0 };
    family.episodes++;
    if (success) family.successes++;
    families.set(taskFamily(trajectory), family);
    const episode = episodeOf(trajectory);
    if (episode !== undefined) {
      const seed = bySeed.get(episode.seed) ?? { samples: 0, correct: 0 };
      seed.samples++;
      if (success) seed.correct++;
      bySeed.set(episode.seed, seed);
    }
  }
  const tools = summarizeToolUse(trajectories);
  const summary: EvalSummary = {
    ...rate(episodes.successes, episodes.episodes),
    failed: episodes.failed,
    meanReward: episodes.meanReward,
    meanTurns: episodes.meanTurns,
    formatRate: episodes.formatRate,
    families: Object.fromEntries([...families.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([name, family]) => [name, rate(family.successes, family.episodes)])),
    endings,
    neverSolved: [...bySeed.entries()].filter(([, seed]) => seed.correct === 0).map(([seed]) => seed).sort((a, b) => a - b),
    tools,
  };
  if (samples > 1) {
    // Seeds with fewer samples than asked (an eval stopped early) cannot give pass@samples; they are left out.
    const complete = [...bySeed.values()].filter((seed) => seed.samples >= samples);
    summary.passAtK = {};
    for (let k = 1; k <= samples; k++) {
      summary.passAtK[String(k)] = complete.length === 0 ? 0 : complete.reduce((sum, seed) => sum + passAtK(seed.samples, seed.correct, k), 0) / complete.length;
    }
  }
  return summary;
}
