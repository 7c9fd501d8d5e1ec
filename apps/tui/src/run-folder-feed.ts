import type { ImageRef, RunEvent, Trajectory } from '@saccade/spec';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { JsonLinesFollower, RUN_FILES, runPaths } from '@saccade/runs';
import type { ImageLoader } from './components/episode-panel';
import { describeInvalidEvent, type RunFeed } from './run-feed';

/** How often runFolderFeed polls the folder, and whether it reads events.jsonl. */
export interface RunFolderFeedOptions {
  /** How often the files are read, in milliseconds. Default 250. */
  intervalMs?: number;
  /** Read `events.jsonl` (default true); off when events come in-process. */
  events?: boolean;
}

/**
 * Follows a run folder: the events appended to `events.jsonl` and the episodes appended to
 * `trajectories/*.jsonl`. It polls rather than using fs.watch, which misses changes on network
 * and synced folders (a run rsynced from a cluster).
 */
export function runFolderFeed(folder: string, options: RunFolderFeedOptions = {}): RunFeed {
  const interval = options.intervalMs ?? 250;
  return (handlers) => {
    const events = options.events === false ? undefined : new JsonLinesFollower(runPaths(folder).events);
    const trajectories = new Map<string, JsonLinesFollower>();
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    const tick = async (): Promise<void> => {
      if (events) {
        for (const line of await events.poll()) {
          if (stopped) return;
          if (!line.ok) {
            handlers.warning(line.error);
            continue;
          }
          const problem = describeInvalidEvent(line.value);
          if (problem) handlers.warning(`${RUN_FILES.events} line ${line.line}: ${problem}`);
          else handlers.event(line.value as RunEvent);
        }
      }
      let files: string[] = [];
      try {
        files = (await readdir(runPaths(folder).trajectories)).filter((name) => name.endsWith('.jsonl')).sort();
      } catch {
        // No trajectories stored (yet).
      }
      for (const name of files) {
        let follower = trajectories.get(name);
        if (!follower) trajectories.set(name, (follower = new JsonLinesFollower(join(runPaths(folder).trajectories, name))));
        for (const line of await follower.poll()) {
          if (stopped) return;
          if (!line.ok) handlers.warning(line.error);
          else if (isTrajectory(line.value)) handlers.trajectory(line.value);
          else handlers.warning(`${RUN_FILES.trajectories}/${name} line ${line.line}: expected a trajectory with an id and turns`);
        }
      }
    };
    const loop = (): void => {
      tick()
        .catch((error: unknown) => handlers.warning(`reading ${folder} failed: ${(error as Error).message}`))
        .finally(() => {
          if (!stopped) timer = setTimeout(loop, interval);
        });
    };
    loop();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  };
}

const EXTENSIONS: Record<ImageRef['mediaType'], string[]> = {
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg'],
  'image/webp': ['webp'],
};

/** Reads a stored trajectory's image from `<folder>/images/<hash>.<ext>`; `undefined` if absent. */
export function runFolderImageLoader(folder: string): ImageLoader {
  return async (image) => {
    if (!/^[0-9a-f]+$/i.test(image.hash)) return undefined; // Never a path outside images/.
    for (const extension of EXTENSIONS[image.mediaType] ?? ['png']) {
      try {
        return await readFile(join(runPaths(folder).images, `${image.hash}.${extension}`));
      } catch {
        // Try the next extension.
      }
    }
    return undefined;
  };
}

function isTrajectory(value: unknown): value is Trajectory {
  if (typeof value !== 'object' || value === null) return false;
  const { id, turns } = value as { id?: unknown; turns?: unknown };
  return typeof id === 'string' && Array.isArray(turns) && turns.every((turn) => typeof turn === 'object' && turn !== null && typeof (turn as { observation?: { text?: unknown } }).observation?.text === 'string');
}
