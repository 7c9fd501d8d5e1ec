export { startViewer } from './server/start-viewer';
export type { StartViewerOptions, Viewer } from './server/start-viewer';
export { RunIndex, findRunFolders } from './server/run-index';
export type { EpisodeSummary, MetricsRowOut, RunInfo } from './server/run-index';
export { episodeTokens, groupAdvantage } from './server/episode-tokens';
export type { EpisodeTokens } from './server/episode-tokens';
export { hasTreeFiles, listTrees } from './server/mcts-trees';
export type { TreeSummary } from './server/mcts-trees';
