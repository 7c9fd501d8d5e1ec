import { SaccadeError } from './saccade-error';

const name = 'Saccade_ConformanceError';
const marker = 'saccade.error.conformance';
const symbol = Symbol.for(marker);

/** An env or tool failed the conformance checks (`assertEnv`); every failure is listed. */
export class ConformanceError extends SaccadeError {
  private readonly [symbol] = true;

  /** What was checked, e.g. an env id. */
  readonly subject: string;
  readonly failures: string[];

  constructor({ subject, failures, cause }: { subject: string; failures: string[]; cause?: unknown }) {
    super({
      name,
      message: `${subject} failed ${failures.length} conformance check${failures.length === 1 ? '' : 's'}:\n${failures
        .map((failure) => `  - ${failure}`)
        .join('\n')}`,
      cause,
    });
    this.subject = subject;
    this.failures = failures;
  }

  static override isInstance(error: unknown): error is ConformanceError {
    return SaccadeError.hasMarker(error, marker);
  }
}
