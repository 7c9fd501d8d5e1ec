import { SaccadeError } from './saccade-error';

const marker = 'saccade.error.file-format';
const symbol = Symbol.for(marker);

/** The context of a `FileFormatError`: the file, the line, the field, what was expected and what came. */
export interface FileFormatErrorOptions {
  /** The file, or a name for in-memory data. */
  file: string;
  /** 1-based line of a line-based file (JSONL); undefined for a document or the file as a whole. */
  line?: number;
  /** Where to point in the message instead of `file` or `file:line` (e.g. `file record 3`). */
  where?: string;
  /** The field at fault, e.g. `answerType` or `choices[2]`; `(line)` when a line is not JSON. */
  field: string;
  expected: string;
  /** A short description of what came. */
  received: string;
  cause?: unknown;
}

/**
 * A file does not hold what its format says. The message names the place, the field, what was
 * expected and what came: `tasks.jsonl:3: field "answerType": expected one of …, received "essay"`.
 * The base of the packages' file errors (task files, dataset files, grounding files), so that one
 * `isInstance` recognises all of them.
 */
export class FileFormatError extends SaccadeError {
  private readonly [symbol] = true;

  readonly file: string;
  readonly line: number | undefined;
  readonly field: string;
  readonly expected: string;
  readonly received: string;

  constructor({ name = 'Saccade_FileFormatError', file, line, where, field, expected, received, cause }: FileFormatErrorOptions & { name?: string }) {
    super({ name, message: `${where ?? (line === undefined ? file : `${file}:${line}`)}: field "${field}": expected ${expected}, received ${received}`, cause });
    this.file = file;
    this.line = line;
    this.field = field;
    this.expected = expected;
    this.received = received;
  }

  static override isInstance(error: unknown): error is FileFormatError {
    return SaccadeError.hasMarker(error, marker);
  }
}
