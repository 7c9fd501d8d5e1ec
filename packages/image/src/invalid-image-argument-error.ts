const marker = Symbol.for('saccade.error.invalid-image-argument');
// @saccade/spec's markers for SaccadeError and InvalidArgumentError, whose fields (argument,
// expected, value) this error also carries, so spec's isInstance checks recognise it.
const baseMarker = Symbol.for('saccade.error');
const argumentMarker = Symbol.for('saccade.error.invalid-argument');

/** The fields of an InvalidImageArgumentError: which argument, what was expected, what came. */
export interface InvalidImageArgumentErrorOptions {
  /** The argument at fault, e.g. 'box', 'width', 'angle'. */
  argument: string;
  expected: string;
  received: string;
  /** The offending value itself. */
  value?: unknown;
}

/**
 * An operation's argument cannot apply to the image: a crop box that is empty after clipping,
 * a non-positive size, a non-finite angle. Tools turn it into an observation the model can read.
 */
export class InvalidImageArgumentError extends Error {
  private readonly [marker] = true;
  private readonly [baseMarker] = true;
  private readonly [argumentMarker] = true;
  override readonly name = 'Saccade_InvalidImageArgumentError';
  readonly argument: string;
  readonly expected: string;
  readonly received: string;
  readonly value: unknown;

  constructor(options: InvalidImageArgumentErrorOptions) {
    super(`Invalid ${options.argument}: expected ${options.expected}, received ${options.received}.`);
    this.argument = options.argument;
    this.expected = options.expected;
    this.received = options.received;
    this.value = options.value;
  }

  static isInstance(error: unknown): error is InvalidImageArgumentError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
