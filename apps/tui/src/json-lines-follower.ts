import { open, stat } from 'node:fs/promises';

export type FollowedLine = { ok: true; value: unknown; line: number } | { ok: false; error: string; line: number };

/**
 * Reads the lines appended to a JSONL file since the last call. A line without its newline yet
 * (a writer mid-append, or a torn last line) waits for the next call; a file that shrank or was
 * replaced (renamed over) is read again from the start.
 */
export class JsonLinesFollower {
  readonly path: string;
  private offset = 0;
  private partial: Buffer = Buffer.alloc(0);
  private lineNumber = 0;
  private inode: number | undefined;

  constructor(path: string) {
    this.path = path;
  }

  async poll(): Promise<FollowedLine[]> {
    let size: number;
    let inode: number;
    try {
      ({ size, ino: inode } = await stat(this.path));
    } catch {
      return []; // Not written yet.
    }
    // A shorter file, or another file renamed into place (a resumed run rewrites its events).
    const replaced = this.inode !== undefined && inode !== this.inode;
    this.inode = inode;
    if (size < this.offset || replaced) {
      this.offset = 0;
      this.partial = Buffer.alloc(0);
      this.lineNumber = 0;
    }
    if (size === this.offset) return [];
    const handle = await open(this.path, 'r');
    let chunk: Buffer;
    try {
      chunk = Buffer.alloc(size - this.offset);
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, this.offset);
      chunk = chunk.subarray(0, bytesRead);
      this.offset += bytesRead;
    } finally {
      await handle.close();
    }
    // Split on bytes, not characters: a multi-byte character may straddle two reads.
    const data = Buffer.concat([this.partial, chunk]);
    const lines: FollowedLine[] = [];
    let start = 0;
    for (let end = data.indexOf(0x0a, start); end !== -1; end = data.indexOf(0x0a, start)) {
      const text = data.subarray(start, end).toString('utf8').trim();
      start = end + 1;
      this.lineNumber++;
      if (text === '') continue;
      try {
        lines.push({ ok: true, value: JSON.parse(text), line: this.lineNumber });
      } catch (error) {
        lines.push({ ok: false, error: `line ${this.lineNumber} of ${this.path} is not JSON (${(error as Error).message}): ${text.slice(0, 80)}`, line: this.lineNumber });
      }
    }
    this.partial = Buffer.from(data.subarray(start));
    return lines;
  }
}
