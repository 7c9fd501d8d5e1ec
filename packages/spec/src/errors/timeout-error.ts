import { SaccadeError } from './saccade-error';

const name = 'Saccade_TimeoutError';
const marker = 'saccade.error.timeout';
const symbol = Symbol.for(marker);

/** An operation (agent call, env step, tool run) ran past its time limit. */
export class TimeoutError extends SaccadeError {
  private readonly [symbol] = true;

  readonly operation: string;
  readonly timeoutMs: number;

  constructor({ operation, timeoutMs, cause }: { operation: string; timeoutMs: number; cause?: unknown }) {
    super({ name, message: `${operation} did not finish within ${timeoutMs} ms.`, cause });
    this.operation = operation;
    this.timeoutMs = timeoutMs;
  }

  static override isInstance(error: unknown): error is TimeoutError {
    return SaccadeError.hasMarker(error, marker);
  }
}
