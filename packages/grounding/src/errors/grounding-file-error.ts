import { SaccadeError } from '@saccade/spec';

const name = 'Saccade_GroundingFileError';
const marker = 'saccade.error.grounding-file';
const symbol = Symbol.for(marker);

/**
 * An SFT file or an MCTS tree file is not what its format says: the message names the file, the
 * line (for JSONL), the field, what was expected and what came.
 */
export class GroundingFileError extends SaccadeError {
  private readonly [symbol] = true;

  readonly file: string;
  /** 1-based line of a JSONL file; undefined for a JSON file or the file as a whole. */
  readonly line: number | undefined;
  readonly field: string;
  readonly expected: string;
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

  static override isInstance(error: unknown): error is GroundingFileError {
    return SaccadeError.hasMarker(error, marker);
  }
}
