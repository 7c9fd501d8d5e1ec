import type { EpisodeSummary } from './api';

export interface EpisodeFilter {
  outcome: 'all' | 'success' | 'failure' | 'error';
  family: string;
  seed: string;
  tool: string;
  minReward: string;
  maxReward: string;
  /** A training run's stored episodes: '' (all), 'grpo', 'ppo', 'eval', or 'trained' / 'left-out' (training episodes the update did or did not use). */
  phase: string;
  /** The step the episodes were played for ('' for all). */
  step: string;
  /** A GRPO group id ('' for all). */
  group: string;
}

export const emptyFilter: EpisodeFilter = { outcome: 'all', family: '', seed: '', tool: '', minReward: '', maxReward: '', phase: '', step: '', group: '' };

/** The episodes that pass the filter (and the text search's matches, when one is on), in run order. */
export function filterEpisodes(episodes: readonly EpisodeSummary[], filter: EpisodeFilter, matches: ReadonlySet<number> | undefined): EpisodeSummary[] {
  const seed = filter.seed.trim() === '' ? undefined : Number(filter.seed);
  const min = filter.minReward.trim() === '' ? undefined : Number(filter.minReward);
  const max = filter.maxReward.trim() === '' ? undefined : Number(filter.maxReward);
  return episodes.filter((episode) => {
    if (filter.outcome === 'success' && !episode.success) return false;
    if (filter.outcome === 'failure' && episode.success) return false;
    if (filter.outcome === 'error' && !episode.failed) return false;
    if (filter.family !== '' && (episode.family ?? episode.envId) !== filter.family && episode.envId !== filter.family) return false;
    if (seed !== undefined && episode.seed !== seed) return false;
    if (filter.tool !== '' && !(filter.tool === '(none)' ? episode.tools.length === 0 : episode.tools.includes(filter.tool))) return false;
    if (min !== undefined && !(episode.totalReward >= min)) return false;
    if (max !== undefined && !(episode.totalReward <= max)) return false;
    if (filter.phase === 'trained' && episode.trained !== true) return false;
    if (filter.phase === 'left-out' && episode.trained !== false) return false;
    if (filter.phase !== '' && filter.phase !== 'trained' && filter.phase !== 'left-out' && episode.phase !== filter.phase) return false;
    if (filter.step !== '' && episode.step !== Number(filter.step)) return false;
    if (filter.group !== '' && episode.groupId !== filter.group) return false;
    if (matches !== undefined && !matches.has(episode.index)) return false;
    return true;
  });
}
