import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { trajectorySchema } from '@saccade/core';
import { TrajectoryFileError, type Trajectory } from '@saccade/spec';
import { checkTrajectoryFilter, matchesTrajectoryFilter, type TrajectoryFilter } from './trajectory-filter';

/** A line that could not be read: its 1-based number, its text and why. */
export interface UnreadableLine {
  line: number;
  text: string;
  reason: string;
}

/**
 * Which trajectories streamTrajectories yields, and how it treats a torn last line and broken lines
 * in the middle.
 */
export interface StreamTrajectoriesOptions {
  /** Only trajectories that pass this filter are yielded. */
  filter?: TrajectoryFilter;
  /**
   * Called for a last line that is not a complete trajectory: what a crash in the middle of a write
   * leaves (or a writer still writing it). The line is skipped; reading ends normally.
   */
  onTornLine?: (line: UnreadableLine) => void;
  /**
   * Skip broken lines in the middle of the file (reported to `onInvalidLine`) instead of throwing a
   * `TrajectoryFileError`. A broken line with complete lines after it is corruption, not a crash.
   */
  skipInvalid?: boolean;
  onInvalidLine?: (line: UnreadableLine) => void;
  signal?: AbortSignal;
}

/**
 * Reads a trajectory JSONL file one line at a time (readline over a stream: memory stays flat
 * whatever the file's size), yielding each trajectory that passes the filter. A torn last line is
 * reported to `onTornLine` and skipped; a broken line elsewhere throws a `TrajectoryFileError` naming
 * it, unless `skipInvalid`.
 *
 * @example
 * for await (const trajectory of streamTrajectories('runs/a/trajectories/rollouts.jsonl', { filter: { success: true } })) {
 *   console.log(trajectory.id, trajectory.totalReward);
 * }
 */
export async function* streamTrajectories(path: string, options: StreamTrajectoriesOptions = {}): AsyncGenerator<Trajectory> {
  const filter = options.filter === undefined ? undefined : checkTrajectoryFilter(options.filter);
  const stream = createReadStream(path, { encoding: 'utf8' });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  // A broken line is only known to be torn once no line follows it, so it waits here.
  let pending: UnreadableLine | undefined;
  let number = 0;
  try {
    for await (const raw of lines) {
      number++;
      options.signal?.throwIfAborted();
      if (raw.trim().length === 0) continue;
      if (pending !== undefined) {
        reportInvalid(path, pending, options);
        pending = undefined;
      }
      const parsed = parseLine(raw);
      if (typeof parsed === 'string') {
        pending = { line: number, text: raw, reason: parsed };
        continue;
      }
      if (filter === undefined || matchesTrajectoryFilter(parsed, filter)) yield parsed;
    }
  } finally {
    lines.close();
    stream.destroy();
  }
  if (pending !== undefined) options.onTornLine?.(pending);
}

function reportInvalid(path: string, line: UnreadableLine, options: StreamTrajectoriesOptions): void {
  if (options.skipInvalid !== true) throw new TrajectoryFileError({ source: path, line: line.line, reason: line.reason });
  options.onInvalidLine?.(line);
}

/** A trajectory, or why the line is not one. */
function parseLine(raw: string): Trajectory | string {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    return `invalid JSON (${(error as Error).message})`;
  }
  const result = trajectorySchema.safeParse(json);
  if (!result.success) {
    return result.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`)
      .join('; ');
  }
  return result.data as unknown as Trajectory;
}
