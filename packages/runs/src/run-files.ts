import { join } from 'node:path';

/**
 * The names of a run folder's files, in one place: the runner writes them, the TUI and
 * `saccade watch` read them, a trainer reads the control file. Anything that reads or writes a run
 * folder takes its names from here.
 */
export const RUN_FILES = {
  /** The run's resolved configuration (YAML), written once at the start. */
  config: 'config.yaml',
  /** Append-only, one `RunEvent` JSON object a line. */
  events: 'events.jsonl',
  /** Append-only, one `MetricsRow` a line (flat numbers of `update-end`, `eval-end`, `rollout-end`). */
  metrics: 'metrics.jsonl',
  /** Append-only, one `{"command", "time"}` line a request from a UI (pause, resume, checkpoint, stop). */
  control: 'control.jsonl',
  /** The run's closing numbers (JSON), replaced whole. */
  summary: 'summary.json',
  /** `checkpoints/<step>/`, each renamed into place whole. */
  checkpoints: 'checkpoints',
  /** The file that marks a finished checkpoint folder and holds its metadata. */
  checkpointManifest: 'manifest.json',
  /** `trajectories/*.jsonl`: stored episodes. */
  trajectories: 'trajectories',
  /** `images/<hash>.<ext>`: the trajectories' images, content-addressed. */
  images: 'images',
  /** `plots/*.svg|png`: charts drawn from the metrics. */
  plots: 'plots',
} as const;

/** The name of one of a run folder's entries. */
export type RunFileName = (typeof RUN_FILES)[keyof typeof RUN_FILES];

/** The paths of a run folder's entries. */
export interface RunPaths {
  folder: string;
  config: string;
  events: string;
  metrics: string;
  control: string;
  summary: string;
  checkpoints: string;
  trajectories: string;
  images: string;
  plots: string;
}

/** The paths of the run folder at `folder` (nothing is read or made). */
export function runPaths(folder: string): RunPaths {
  return {
    folder,
    config: join(folder, RUN_FILES.config),
    events: join(folder, RUN_FILES.events),
    metrics: join(folder, RUN_FILES.metrics),
    control: join(folder, RUN_FILES.control),
    summary: join(folder, RUN_FILES.summary),
    checkpoints: join(folder, RUN_FILES.checkpoints),
    trajectories: join(folder, RUN_FILES.trajectories),
    images: join(folder, RUN_FILES.images),
    plots: join(folder, RUN_FILES.plots),
  };
}

/**
 * The trajectory files a run keeps (`trajectories/<name>.jsonl`): an eval's episodes, a training
 * run's stored GRPO/PPO steps and its evaluations' episodes (each with its `training` record).
 */
export const TRAJECTORY_FILES = {
  episodes: 'episodes',
  training: 'training',
  evaluations: 'evaluations',
} as const;

/** `<folder>/trajectories/<name>.jsonl`. */
export function trajectoriesFile(folder: string, name: string): string {
  return join(folder, RUN_FILES.trajectories, `${name}.jsonl`);
}
