import { SaccadeError } from '@saccade/spec';

const name = 'Saccade_TaskFileError';
const marker = 'saccade.error.task-file';
const symbol = Symbol.for(marker);

/**
 * A task file (or an in-memory task) is not what the format says: the message names the file,
 * the line, the field, what was expected and what came, e.g.
 * `tasks.jsonl:3: field "answerType": expected one of multiple-choice | …, received "essay"`.
 */
export class TaskFileError extends SaccadeError {
  private readonly [symbol] = true;

  /** The task file, or `tasks` for in-memory tasks. */
  readonly file: string;
  /** 1-based line number (the index for in-memory tasks); undefined for the file as a whole. */
  readonly line: number | undefined;
  /** The field, e.g. `answerType` or `choices[2]`; `(line)` when the line is not a JSON object. */
  readonly field: string;
  readonly expected: string;
  /** A short description of what came. */
  readonly received: string;

  constructor({ file, line, field, expected, received, cause }: { file: string; line?: number; field: string; expected: string; received: string; cause?: unknown }) {
    const where = line === undefined ? file : `${file}:${line}`;
    super({ name, message: `${where}: field "${field}": expected ${expected}, received ${received}`, cause });
    this.file = file;
    this.line = line;
    this.field = field;
    this.expected = expected;
    this.received = received;
  }

  static override isInstance(error: unknown): error is TaskFileError {
    return SaccadeError.hasMarker(error, marker);
  }
}
