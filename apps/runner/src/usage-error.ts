import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { SaccadeError } from '@saccade/spec';

const marker = 'saccade.error.usage';
const symbol = Symbol.for(marker);

/** The command line asks for something that cannot be done (a folder that cannot be made): exit 2, no stack trace. */
export class UsageError extends SaccadeError {
  private readonly [symbol] = true;

  constructor({ message, cause }: { message: string; cause?: unknown }) {
    super({ name: 'Saccade_UsageError', message, cause });
  }

  static override isInstance(error: unknown): error is UsageError {
    return SaccadeError.hasMarker(error, marker);
  }
}

/** A Node file-system error (`EACCES`, `ENOTDIR`, …): an expected failure of the machine, not a bug. */
export function isFileSystemError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && typeof (error as NodeJS.ErrnoException).syscall === 'string';
}

/**
 * Why `path` cannot be written as a folder (or, with `kind: 'file'`, a file inside it), in words: the
 * nearest existing ancestor that is a file, a folder without write permission, a read-only or
 * virtual file system.
 */
export function describeWriteError(path: string, error: NodeJS.ErrnoException, kind: 'folder' | 'file' = 'folder'): string {
  const what = kind === 'folder' ? `create the folder ${path}` : `write ${path}`;
  let ancestor = resolve(kind === 'folder' ? path : dirname(path));
  while (!existsSync(ancestor) && dirname(ancestor) !== ancestor) ancestor = dirname(ancestor);
  let isFile = false;
  try {
    isFile = !statSync(ancestor).isDirectory();
  } catch {
    isFile = false;
  }
  switch (error.code) {
    case 'EEXIST':
    case 'ENOTDIR':
      return `cannot ${what}: ${isFile ? `${ancestor} is a file, not a folder` : `${path} exists and is not a folder`}`;
    case 'EACCES':
    case 'EPERM':
      return `cannot ${what}: no permission to write in ${ancestor}`;
    case 'EROFS':
      return `cannot ${what}: ${ancestor} is on a read-only file system`;
    case 'EISDIR':
      return `cannot ${what}: it is a folder`;
    case 'ENOENT':
      // The ancestor exists, yet the kernel says no such file: /proc and the like.
      return `cannot ${what}: ${ancestor} does not allow new ${kind === 'folder' ? 'folders' : 'files'}`;
    case 'ENOSPC':
      return `cannot ${what}: no space left on the device`;
    default:
      return `cannot ${what}: ${error.code} (${error.message.split(',')[0]})`;
  }
}
