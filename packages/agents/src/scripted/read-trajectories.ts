import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { trajectorySchema } from '@saccade/core';
import { TrajectoryFileError, type Trajectory } from '@saccade/spec';

/**
 * Parses trajectory JSONL text: one trajectory per line, blank lines skipped. Throws a
 * `TrajectoryFileError` naming the 1-based line of the first broken line.
 */
export function parseTrajectoriesJsonl(text: string, source = '<string>'): Trajectory[] {
  const trajectories: Trajectory[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line.length === 0) return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (cause) {
      throw new TrajectoryFileError({ source, line: index + 1, reason: `invalid JSON (${(cause as Error).message})`, cause });
    }
    const parsed = trajectorySchema.safeParse(json);
    if (!parsed.success) {
      const reason = parsed.error.issues
        .slice(0, 3)
        .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`)
        .join('; ');
      throw new TrajectoryFileError({ source, line: index + 1, reason, cause: parsed.error });
    }
    trajectories.push(parsed.data as unknown as Trajectory);
  });
  return trajectories;
}

/** Reads a trajectory JSONL file. */
export async function readTrajectories(file: string): Promise<Trajectory[]> {
  return parseTrajectoriesJsonl(await readFile(file, 'utf8'), file);
}

/** Reads a trajectory JSONL file synchronously (for agents built in one call). */
export function readTrajectoriesSync(file: string): Trajectory[] {
  return parseTrajectoriesJsonl(readFileSync(file, 'utf8'), file);
}
