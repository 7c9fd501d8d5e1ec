import { FileFormatError, SaccadeError, type FileFormatErrorOptions } from '@saccade/spec';

const name = 'Saccade_TaskFileError';
const marker = 'saccade.error.task-file';
const symbol = Symbol.for(marker);

/**
 * A task file (or an in-memory task) is not what the format says: the message names the file,
 * the line, the field, what was expected and what came, e.g.
 * `tasks.jsonl:3: field "answerType": expected one of multiple-choice | …, received "essay"`.
 * `file` is `tasks` for in-memory tasks, and `line` their index.
 */
export class TaskFileError extends FileFormatError {
  private readonly [symbol] = true;

  constructor(options: Omit<FileFormatErrorOptions, 'where'>) {
    super({ ...options, name });
  }

  static override isInstance(error: unknown): error is TaskFileError {
    return SaccadeError.hasMarker(error, marker);
  }
}
