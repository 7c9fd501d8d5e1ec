export { renderTrainingTui, type RenderTrainingTuiOptions, type TrainingTui } from './render-training-tui';
export { watchRunFolder, type WatchRunFolderOptions } from './watch-run-folder';
export { createFileControl, type RunControl } from './run-control';
export type { ControlCommand } from '@saccade/runs';
export { combineFeeds, feedFromSource, type RunEventEmitter, type RunEventSource, type RunFeed, type RunFeedHandlers } from './run-feed';
export { runFolderFeed, runFolderImageLoader, type RunFolderFeedOptions } from './run-folder-feed';
export { JsonLinesFollower, type FollowedLine } from '@saccade/runs';
export {
  addTrajectory,
  CHART_NAMES,
  elapsedSeconds,
  etaSeconds,
  initialRunState,
  reduceRunState,
  type ChartName,
  type EpisodeTurnView,
  type EpisodeView,
  type LogLine,
  type RunInfo,
  type RunState,
  type RunStatus,
  type Series,
  type SeriesPoint,
} from './run-state';
export { renderLineChart, formatValue, EVAL_MARKER, type ChartLine, type ChartSegment, type LineChartOptions } from './line-chart';
export { renderThumbnail, type Thumbnail, type ThumbnailCell } from './thumbnail';
export { highlightText, type HighlightKind, type HighlightSegment } from './highlight';
export { TrainingApp, type TrainingAppProps } from './components/training-app';
export { RunHeader, type RunHeaderProps } from './components/run-header';
export { ChartPanel, type ChartPanelProps } from './components/chart-panel';
export { ThroughputPanel, type ThroughputPanelProps } from './components/throughput-panel';
export { EpisodePanel, type EpisodePanelProps, type ImageLoader, type ImageMode } from './components/episode-panel';
export { EventLog, type EventLogProps } from './components/event-log';
export { phasesFromConfig, remainingSeconds, type PhasePlan, type PhasePosition } from './phase-eta';
