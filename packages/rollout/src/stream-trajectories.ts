import { readJsonLines, trajectorySchema } from '@saccade/core';
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
 * Reads a trajectory JSONL file one line at a time (core's `readJsonLines`: memory stays flat
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
  // A broken line is only known to be torn once no line follows it, so it waits here.
  let pending: UnreadableLine | undefined;
  for await (const { lineNumber, text, value, error } of readJsonLines(path, { signal: options.signal })) {
    if (pending !== undefined) {
      reportInvalid(path, pending, options);
      pending = undefined;
    }
    const parsed = error === undefined ? checkTrajectory(value) : `invalid JSON (${error.message})`;
    if (typeof parsed === 'string') {
      pending = { line: lineNumber, text, reason: parsed };
      continue;
    }
    if (filter === undefined || matchesTrajectoryFilter(parsed, filter)) yield parsed;
  }
  if (pending !== undefined) options.onTornLine?.(pending);
}

function reportInvalid(path: string, line: UnreadableLine, options: StreamTrajectoriesOptions): void {
  if (options.skipInvalid !== true) throw new TrajectoryFileError({ source: path, line: line.line, reason: line.reason });
  options.onInvalidLine?.(line);
}

/** A trajectory, or why the line's JSON is not one. */
function checkTrajectory(json: unknown): Trajectory | string {
  const result = trajectorySchema.safeParse(json);
  if (!result.success) {
    return result.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`)
      .join('; ');
  }
  return result.data as unknown as Trajectory;
}
