import { describeValue } from './describe-value';
import { SaccadeError } from './saccade-error';

const name = 'Saccade_InvalidActionError';
const marker = 'saccade.error.invalid-action';
const symbol = Symbol.for(marker);

/**
 * An action an env or tool cannot carry out. Envs turn it into an observation for the model;
 * it is thrown only where the caller asked for strict checking.
 */
export class InvalidActionError extends SaccadeError {
  private readonly [symbol] = true;

  readonly action: string;
  readonly expected: string;

  constructor({ action, expected, message, cause }: { action: string; expected: string; message?: string; cause?: unknown }) {
    super({ name, message: message ?? `Invalid action: expected ${expected}, received ${describeValue(action)}.`, cause });
    this.action = action;
    this.expected = expected;
  }

  static override isInstance(error: unknown): error is InvalidActionError {
    return SaccadeError.hasMarker(error, marker);
  }
}
