import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RUN_FILES } from './run-files';

/** A finished checkpoint of a run: `checkpoints/<step>/` with its manifest. */
export interface CheckpointEntry {
  step: number;
  path: string;
}

/**
 * The checkpoints of a run folder that finished writing (a `checkpoints/<step>/` folder with a
 * manifest; checkpoints are renamed into place whole), newest first.
 */
export function listCheckpoints(runFolder: string): CheckpointEntry[] {
  const folder = join(runFolder, RUN_FILES.checkpoints);
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => /^\d+$/.test(name) && existsSync(join(folder, name, RUN_FILES.checkpointManifest)))
    .map(Number)
    .sort((a, b) => b - a)
    .map((step) => ({ step, path: join(folder, String(step)) }));
}

/** Where a checkpoint of `step` goes in a run folder: `checkpoints/<step>`. */
export function checkpointPath(runFolder: string, step: number): string {
  if (!Number.isInteger(step) || step < 0) throw new Error(`Expected a checkpoint step (an integer ≥ 0), got ${step}.`);
  return join(runFolder, RUN_FILES.checkpoints, String(step));
}

/**
 * The newest finished checkpoint of a run folder with the trainer's metadata from its manifest;
 * undefined when there is none.
 */
export function lastCheckpoint(runFolder: string): (CheckpointEntry & { metadata: Record<string, unknown> }) | undefined {
  const newest = listCheckpoints(runFolder)[0];
  if (newest === undefined) return undefined;
  const manifest = JSON.parse(readFileSync(join(newest.path, RUN_FILES.checkpointManifest), 'utf8')) as { metadata?: Record<string, unknown> };
  return { ...newest, metadata: manifest.metadata ?? {} };
}
