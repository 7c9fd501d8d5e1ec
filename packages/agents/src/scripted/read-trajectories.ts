import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Trajectory } from '@saccade/spec';
import { z } from 'zod';
import { TrajectoryFileError } from '../errors/trajectory-file-error';

const storedObservationSchema = z.looseObject({ text: z.string(), images: z.array(z.looseObject({ hash: z.string() })) });

const turnSchema = z.looseObject({
  observation: storedObservationSchema,
  action: z.string(),
  reward: z.number(),
});

/** The fields of a stored trajectory the readers rely on; the rest passes through. */
export const trajectorySchema = z.looseObject({
  id: z.string(),
  envId: z.string(),
  seed: z.number().nullable(),
  agentId: z.string(),
  turns: z.array(turnSchema),
});

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
