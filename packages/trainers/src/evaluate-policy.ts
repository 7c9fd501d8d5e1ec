import type { Trajectory } from '@saccade/spec';
import { trajectorySuccess } from '@saccade/rollout';
import type { PolicyEpisodes } from './policy-episodes';

export interface PolicyEvaluation {
  episodes: number;
  /** Fraction of episodes that ended in success (`info.metrics.success`). */
  success: number;
  meanReward: number;
  /** Fraction of turns whose response was well formed (`info.formatCorrect`). */
  formatRate: number;
  meanTurns: number;
}

/** Greedy episodes of the policy on the given seeds, played by the rollout manager, summarised. */
export async function evaluatePolicy(episodes: PolicyEpisodes, seeds: readonly number[], options: { step?: number; concurrency?: number } = {}): Promise<PolicyEvaluation> {
  const played = await episodes.play(seeds, { temperature: 0, seed: 0, concurrency: options.concurrency ?? 200, ...(options.step === undefined ? {} : { step: options.step }) });
  return summarizeTrajectories(played.trajectories);
}

/** Success rate, mean return, format rate and mean turns of played episodes. */
export function summarizeTrajectories(trajectories: readonly Trajectory[]): PolicyEvaluation {
  const count = trajectories.length;
  let turns = 0;
  let wellFormed = 0;
  let reward = 0;
  let successes = 0;
  for (const trajectory of trajectories) {
    turns += trajectory.turns.length;
    wellFormed += trajectory.turns.filter((turn) => turn.info['formatCorrect'] === true).length;
    reward += trajectory.totalReward;
    if (trajectorySuccess(trajectory)) successes++;
  }
  return {
    episodes: count,
    success: count === 0 ? 0 : successes / count,
    meanReward: count === 0 ? 0 : reward / count,
    formatRate: turns === 0 ? 0 : wellFormed / turns,
    meanTurns: count === 0 ? 0 : turns / count,
  };
}
