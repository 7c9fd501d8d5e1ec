import { SaccadeError } from './saccade-error';

const name = 'Saccade_InvalidStateError';
const marker = 'saccade.error.invalid-state';
const symbol = Symbol.for(marker);

/** A method was called when the object was not in a state that allows it (step before reset). */
export class InvalidStateError extends SaccadeError {
  private readonly [symbol] = true;

  /** The call that was refused, e.g. `step()`. */
  readonly operation: string;
  readonly expected: string;
  readonly actual: string;

  constructor({
    operation,
    expected,
    actual,
    message,
    cause,
  }: {
    operation: string;
    expected: string;
    actual: string;
    message?: string;
    cause?: unknown;
  }) {
    super({ name, message: message ?? `Cannot call ${operation}: expected ${expected}, but ${actual}.`, cause });
    this.operation = operation;
    this.expected = expected;
    this.actual = actual;
  }

  static override isInstance(error: unknown): error is InvalidStateError {
    return SaccadeError.hasMarker(error, marker);
  }
}
