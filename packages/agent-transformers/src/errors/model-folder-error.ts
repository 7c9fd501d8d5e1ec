import { SaccadeError } from '@saccade/spec';

const name = 'Saccade_ModelFolderError';
const marker = 'saccade.error.model-folder';
const symbol = Symbol.for(marker);

/**
 * A local model folder cannot be used: it does not exist, lacks `config.json` or a file the model
 * type needs, names a model type this agent does not run, or holds an ONNX file that does not load.
 * The message names the path, what was expected there and what was found.
 */
export class ModelFolderError extends SaccadeError {
  private readonly [symbol] = true;

  /** The model folder (absolute). */
  readonly modelPath: string;
  /** The file or folder at fault (absolute); the model folder itself when the problem is the folder. */
  readonly path: string;
  /** What was expected there. */
  readonly expected: string;
  /** What was found instead. */
  readonly found: string;

  constructor({ modelPath, path = modelPath, expected, found, cause }: { modelPath: string; path?: string; expected: string; found: string; cause?: unknown }) {
    super({ name, message: `Model folder ${modelPath} cannot be used: ${path === modelPath ? '' : `${path}: `}expected ${expected}; found ${found}.`, cause });
    this.modelPath = modelPath;
    this.path = path;
    this.expected = expected;
    this.found = found;
  }

  static override isInstance(error: unknown): error is ModelFolderError {
    return SaccadeError.hasMarker(error, marker);
  }
}
