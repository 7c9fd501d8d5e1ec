import { SaccadeError } from '@saccade/spec';

const marker = 'saccade.error.sandbox-limit';
const symbol = Symbol.for(marker);

/** Which of the sandbox's limits a call ran into. */
export type SandboxLimit = 'time' | 'memory' | 'output' | 'stack' | 'crash';

/**
 * Code in the sandbox ran past one of its limits (time, memory, output, the interpreter's stack) or
 * brought its interpreter down; the call was stopped and the interpreter replaced. It carries what
 * the code printed before it was stopped.
 */
export class SandboxLimitError extends SaccadeError {
  private readonly [symbol] = true;

  readonly limit: SandboxLimit;
  /** What the code printed to stdout before it was stopped (empty when its thread was ended). */
  readonly stdout: string;
  readonly stderr: string;

  constructor({ limit, message, stdout = '', stderr = '', cause }: { limit: SandboxLimit; message: string; stdout?: string; stderr?: string; cause?: unknown }) {
    super({ name: 'Saccade_SandboxLimitError', message, cause });
    this.limit = limit;
    this.stdout = stdout;
    this.stderr = stderr;
  }

  static override isInstance(error: unknown): error is SandboxLimitError {
    return SaccadeError.hasMarker(error, marker);
  }
}
