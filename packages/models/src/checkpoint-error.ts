import { SaccadeError } from '@saccade/spec';

const name = 'Saccade_CheckpointError';
const marker = 'saccade.error.checkpoint';
const symbol = Symbol.for(marker);

/** A checkpoint could not be read, or it belongs to a model of another shape. */
export class CheckpointError extends SaccadeError {
  private readonly [symbol] = true;

  readonly path: string;
  /** The config field (or file) that differs, when that is the reason. */
  readonly field?: string;
  readonly expected?: unknown;
  readonly received?: unknown;

  constructor({
    path,
    message,
    field,
    expected,
    received,
    cause,
  }: {
    path: string;
    message: string;
    field?: string;
    expected?: unknown;
    received?: unknown;
    cause?: unknown;
  }) {
    super({ name, message, cause });
    this.path = path;
    this.field = field;
    this.expected = expected;
    this.received = received;
  }

  static override isInstance(error: unknown): error is CheckpointError {
    return SaccadeError.hasMarker(error, marker);
  }
}
