import type { DataParallel, VisionLanguageModel } from '@saccade/models';
import { playEpisodes } from './play-episodes';
import type { PolicyView } from './policy-messages';

export interface EvaluatePolicyOptions {
  envId: string;
  envOptions?: Record<string, unknown>;
  seeds: readonly number[];
  view: PolicyView;
  /** Turn cap per episode (the registered env's time limit applies too). */
  maxTurns: number;
  maxTokens?: number;
  /** Episodes played side by side: one batched generate call per turn serves them all. */
  batchSize?: number;
  /** Share generation over a trainer's threads. */
  parallel?: DataParallel;
  signal?: AbortSignal;
}

export interface PolicyEvaluation {
  episodes: number;
  /** Fraction of episodes that ended in success (`info.metrics.success`). */
  success: number;
  meanReward: number;
  /** Fraction of turns whose response was well formed. */
  formatRate: number;
  meanTurns: number;
}

/** Greedy episodes of the model on the given seeds (see playEpisodes), summarised. */
export async function evaluatePolicy(model: VisionLanguageModel, options: EvaluatePolicyOptions): Promise<PolicyEvaluation> {
  const episodes = await playEpisodes(model, {
    ...options,
    temperature: 0,
    batchSize: options.batchSize ?? 100,
  });
  return summarizeEpisodes(episodes);
}

/** Success rate, mean return, format rate and mean turns of played episodes. */
export function summarizeEpisodes(episodes: readonly { turns: readonly { formatCorrect: boolean }[]; return: number; success: boolean }[]): PolicyEvaluation {
  const count = episodes.length;
  const turns = episodes.reduce((sum, episode) => sum + episode.turns.length, 0);
  const wellFormed = episodes.reduce((sum, episode) => sum + episode.turns.filter((turn) => turn.formatCorrect).length, 0);
  return {
    episodes: count,
    success: count === 0 ? 0 : episodes.filter((episode) => episode.success).length / count,
    meanReward: count === 0 ? 0 : episodes.reduce((sum, episode) => sum + episode.return, 0) / count,
    formatRate: turns === 0 ? 0 : wellFormed / turns,
    meanTurns: count === 0 ? 0 : turns / count,
  };
}
