import { SaccadeError } from './saccade-error';

const name = 'Saccade_ToolExecutionError';
const marker = 'saccade.error.tool-execution';
const symbol = Symbol.for(marker);

/** A tool failed while running. Callers turn it into a `<tool_response>` the model can read. */
export class ToolExecutionError extends SaccadeError {
  private readonly [symbol] = true;

  readonly toolName: string;
  readonly input: unknown;

  constructor({ toolName, input, message, cause }: { toolName: string; input: unknown; message?: string; cause?: unknown }) {
    const reason = message ?? (cause instanceof Error ? cause.message : cause !== undefined ? String(cause) : 'unknown error');
    super({ name, message: `Tool "${toolName}" failed: ${reason}`, cause });
    this.toolName = toolName;
    this.input = input;
  }

  static override isInstance(error: unknown): error is ToolExecutionError {
    return SaccadeError.hasMarker(error, marker);
  }
}
