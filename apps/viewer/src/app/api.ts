import type { Trajectory } from '@saccade/spec';
import type { EpisodeSummary, MetricsRowOut, RunInfo } from '../server/run-index';
import type { EpisodeTokens } from '../server/episode-tokens';
import type { TreeSummary } from '../server/mcts-trees';

export type { EpisodeSummary, MetricsRowOut, RunInfo, EpisodeTokens, Trajectory, TreeSummary };

async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(path, { cache: 'no-store' });
  const body = (await response.json()) as T & { error?: string };
  if (!response.ok) throw new Error(body.error ?? `${path}: HTTP ${response.status}`);
  return body;
}

const run = (name: string) => `/api/runs/${encodeURIComponent(name)}`;

export const api = {
  runs: () => getJson<{ runs: RunInfo[] }>('/api/runs'),
  episodes: (name: string, after: number) => getJson<{ total: number; info: RunInfo; episodes: EpisodeSummary[] }>(`${run(name)}/episodes?after=${after}`),
  metrics: (name: string, after: number) => getJson<{ rows: MetricsRowOut[] }>(`${run(name)}/metrics?after=${after}`),
  search: (name: string, query: string) => getJson<{ indexes: number[] }>(`${run(name)}/search?q=${encodeURIComponent(query)}`),
  episode: (name: string, id: string) => getJson<{ trajectory: Trajectory; summary: EpisodeSummary }>(`${run(name)}/episodes/${encodeURIComponent(id)}`),
  tokens: (name: string, id: string) => getJson<EpisodeTokens>(`${run(name)}/episodes/${encodeURIComponent(id)}/tokens`),
  trees: (name: string) => getJson<{ trees: TreeSummary[] }>(`${run(name)}/trees`),
  tree: (name: string, file: string) => getJson<unknown>(`${run(name)}/trees/${encodeURIComponent(file)}`),
  imageUrl: (name: string, image: { hash: string; mediaType: string }) =>
    `${run(name)}/images/${image.hash}.${image.mediaType === 'image/jpeg' ? 'jpg' : image.mediaType === 'image/webp' ? 'webp' : 'png'}`,
};
