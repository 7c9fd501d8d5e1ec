import { existsSync, statSync } from 'node:fs';
import { RUN_FILES, RunFolder } from '@saccade/runs';
import { createFileControl, type RunControl } from './run-control';
import { runFolderFeed, runFolderImageLoader } from './run-folder-feed';
import { mount, type TrainingTui } from './render-training-tui';

/**
 * Where watchRunFolder sends control commands, how often it reads the folder, and the terminal
 * streams it draws on and reads keys from.
 */
export interface WatchRunFolderOptions {
  /** Default: commands go to the folder's `control.jsonl`. */
  control?: RunControl;
  /** How often the folder is read, in milliseconds. Default 250. */
  intervalMs?: number;
  stdout?: NodeJS.WriteStream;
  stdin?: NodeJS.ReadStream;
}

/**
 * Attaches the UI to a run folder that another process writes (or wrote): follows events.jsonl
 * and trajectories, and sends pause, checkpoint and stop through `control.jsonl`.
 */
export function watchRunFolder(folder: string, options: WatchRunFolderOptions = {}): TrainingTui {
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new Error(`Expected a run folder, got ${folder}: no such folder.`);
  if (!RunFolder.isRunFolder(folder)) throw new Error(`Expected a run folder with ${RUN_FILES.events}, got ${folder}: it has no ${RUN_FILES.events}.`);
  const feed = runFolderFeed(folder, options.intervalMs === undefined ? {} : { intervalMs: options.intervalMs });
  return mount(feed, {
    control: options.control ?? createFileControl(folder),
    quitStopsRun: false,
    exitOnRunEnd: false,
    loadImage: runFolderImageLoader(folder),
    ...(options.stdout ? { stdout: options.stdout } : {}),
    ...(options.stdin ? { stdin: options.stdin } : {}),
  });
}
