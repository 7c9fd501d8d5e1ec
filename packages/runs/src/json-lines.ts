import { existsSync, readFileSync } from 'node:fs';

/**
 * The JSON values of a JSON-lines file, one a line; blank lines and lines that are not JSON (a
 * torn last line from a process killed mid-append) are skipped. A missing file has none.
 */
export function readJsonLines<T = unknown>(file: string): T[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line) => {
      if (line.trim() === '') return [];
      try {
        return [JSON.parse(line) as T];
      } catch {
        return [];
      }
    });
}
