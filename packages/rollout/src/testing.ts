// Test helpers for envs, tools and wrappers: play an episode through the rollout manager and read
// what the agent was shown. `@saccade/rollout/testing`; not part of the main entry.
export { lastObservation } from './testing/last-observation';
export { playEpisode } from './testing/play-episode';
export type { PlayEpisodeOptions } from './testing/play-episode';
