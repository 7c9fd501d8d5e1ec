import { formatCorrectOf, type Trajectory } from '@saccade/spec';
import { trajectorySuccess } from './trajectory-success';

/**
 * What every summary of a batch of played episodes reports: a rollout batch's metrics, a policy
 * evaluation and an eval's summary.json all read these numbers from here.
 */
export interface EpisodeSummary {
  episodes: number;
  /** Episodes that succeeded ({@link trajectorySuccess}). */
  successes: number;
  /** successes / episodes (0 for no episodes). */
  success: number;
  /** Episodes that stopped on an error (agent or env); they count as failures. */
  failed: number;
  /** Mean of the episodes' total rewards (0 for no episodes). */
  meanReward: number;
  /** Turns over all episodes. */
  turns: number;
  /** turns / episodes (0 for no episodes). */
  meanTurns: number;
  /**
   * Fraction of the turns that report a format (`info.metrics.format_correct`, or the
   * `formatCorrect` of older envs; tool turns neither) that were well formed; null when none do.
   */
  formatRate: number | null;
}

/** Success, failures, mean reward, mean turns and format rate of played episodes, in one pass. */
export function summarizeEpisodes(trajectories: readonly Trajectory[]): EpisodeSummary {
  const episodes = trajectories.length;
  let successes = 0;
  let failed = 0;
  let reward = 0;
  let turns = 0;
  let formatTurns = 0;
  let wellFormed = 0;
  for (const trajectory of trajectories) {
    if (trajectorySuccess(trajectory)) successes++;
    if (trajectory.error !== undefined) failed++;
    reward += trajectory.totalReward;
    turns += trajectory.turns.length;
    for (const turn of trajectory.turns) {
      const format = formatCorrectOf(turn.info);
      if (format === undefined) continue;
      formatTurns++;
      if (format) wellFormed++;
    }
  }
  return {
    episodes,
    successes,
    success: episodes === 0 ? 0 : successes / episodes,
    failed,
    meanReward: episodes === 0 ? 0 : reward / episodes,
    turns,
    meanTurns: episodes === 0 ? 0 : turns / episodes,
    formatRate: formatTurns === 0 ? null : wellFormed / formatTurns,
  };
}
