import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describeWriteError, isFileSystemError, UsageError } from './usage-error';

/**
 * Creates `path` (and its parents) for a command's output and checks that it can be written: a
 * path under a file, a read-only folder or a virtual file system such as /sys or /proc is a
 * UsageError naming `flag` (`--out`), not a stack trace.
 */
export function ensureOutputFolder(path: string, flag = '--out'): void {
  try {
    makeFolders(path);
    accessSync(path, constants.W_OK);
  } catch (error) {
    if (!isFileSystemError(error)) throw error;
    throw new UsageError({ message: `${flag}: ${describeWriteError(path, error)}`, cause: error });
  }
}

/**
 * `mkdir -p`, one level at a time from the nearest existing ancestor: Node's recursive mkdirSync
 * never returns for a path under /proc (it retries the ENOENT the kernel answers).
 */
function makeFolders(path: string): void {
  const missing: string[] = [];
  let current = resolve(path);
  while (!existsSync(current) && dirname(current) !== current) {
    missing.push(current);
    current = dirname(current);
  }
  if (!statSync(current).isDirectory()) throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${path}'`), { code: 'ENOTDIR', syscall: 'mkdir', path });
  for (const folder of missing.reverse()) {
    try {
      mkdirSync(folder);
    } catch (error) {
      // Made meanwhile by someone else: fine if it is a folder.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(folder).isDirectory()) throw error;
    }
  }
}
