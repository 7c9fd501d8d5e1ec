import { FileFormatError, SaccadeError, type FileFormatErrorOptions } from '@saccade/spec';

const name = 'Saccade_GroundingFileError';
const marker = 'saccade.error.grounding-file';
const symbol = Symbol.for(marker);

/**
 * An SFT file or an MCTS tree file is not what its format says: the message names the file, the
 * line (for JSONL), the field, what was expected and what came.
 */
export class GroundingFileError extends FileFormatError {
  private readonly [symbol] = true;

  constructor(options: Omit<FileFormatErrorOptions, 'where'>) {
    super({ ...options, name });
  }

  static override isInstance(error: unknown): error is GroundingFileError {
    return SaccadeError.hasMarker(error, marker);
  }
}
