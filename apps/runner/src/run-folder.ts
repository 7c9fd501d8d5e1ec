import { RunFolder as BaseRunFolder, type CreateRunFolderOptions } from '@saccade/runs';
import { ensureOutputFolder } from './output-folder';

/**
 * `@saccade/runs`' run folder, made the CLI's way: an `--out` that cannot be made (under a file,
 * read-only, /sys) is a UsageError, one line and exit 2.
 */
export class RunFolder extends BaseRunFolder {
  static override create(outputFolder: string, name: string, options: Omit<CreateRunFolderOptions, 'makeFolder'> = {}): BaseRunFolder {
    return BaseRunFolder.create(outputFolder, name, { ...options, makeFolder: (path) => ensureOutputFolder(path, '--out') });
  }
}
