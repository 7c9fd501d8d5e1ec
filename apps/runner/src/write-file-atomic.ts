import { renameSync, writeFileSync } from 'node:fs';

/** Writes to a temporary sibling, then renames it over `path`: readers never see half a file. */
export function writeFileAtomic(path: string, content: string | Uint8Array): void {
  const temporary = `${path}.tmp-${process.pid}`;
  writeFileSync(temporary, content);
  renameSync(temporary, path);
}
