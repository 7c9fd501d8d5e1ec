import { describeValue } from './describe-value';
import { SaccadeError } from './saccade-error';

const name = 'Saccade_InvalidArgumentError';
const marker = 'saccade.error.invalid-argument';
const symbol = Symbol.for(marker);

/** A function was called with an argument it cannot use. */
export class InvalidArgumentError extends SaccadeError {
  private readonly [symbol] = true;

  readonly argument: string;
  readonly expected: string;
  readonly value: unknown;

  constructor({
    argument,
    expected,
    value,
    message,
    cause,
  }: {
    argument: string;
    expected: string;
    value: unknown;
    message?: string;
    cause?: unknown;
  }) {
    super({
      name,
      message: message ?? `Invalid argument ${argument}: expected ${expected}, received ${describeValue(value)}.`,
      cause,
    });
    this.argument = argument;
    this.expected = expected;
    this.value = value;
  }

  static override isInstance(error: unknown): error is InvalidArgumentError {
    return SaccadeError.hasMarker(error, marker);
  }
}
