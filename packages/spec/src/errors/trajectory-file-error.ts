import { SaccadeError } from './saccade-error';

const name = 'Saccade_TrajectoryFileError';
const marker = 'saccade.error.trajectory-file';
const symbol = Symbol.for(marker);

/**
 * A line of a trajectory JSONL file is not valid JSON or not a trajectory (rollout's trajectory
 * store, agents' trajectory readers): `runs/a/trajectories/x.jsonl:3: not a trajectory: turns: …`.
 */
export class TrajectoryFileError extends SaccadeError {
  private readonly [symbol] = true;

  /** The file path, or a label such as '<string>'. */
  readonly source: string;
  /** 1-based line number. */
  readonly line: number;
  readonly reason: string;

  constructor({ source, line, reason, cause }: { source: string; line: number; reason: string; cause?: unknown }) {
    super({ name, message: `${source}:${line}: not a trajectory: ${reason}`, cause });
    this.source = source;
    this.line = line;
    this.reason = reason;
  }

  static override isInstance(error: unknown): error is TrajectoryFileError {
    return SaccadeError.hasMarker(error, marker);
  }
}
