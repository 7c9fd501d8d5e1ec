import { open, stat } from 'node:fs/promises';

interface LinePlace {
  /** 1-based line number in the file; blank lines count. */
  line: number;
  /** Where the line's bytes start in the file. */
  offset: number;
  /** The line's length in bytes, without its newline: `offset` and `length` read it back alone. */
  length: number;
}

/** A complete line of a followed JSON-lines file: its JSON value, or why it has none, and where it is. */
export type FollowedLine = (LinePlace & { ok: true; value: unknown }) | (LinePlace & { ok: false; error: string });

/**
 * Follows a JSON-lines file that another process appends to (a run's `events.jsonl`, `metrics.jsonl`,
 * `trajectories/*.jsonl`): each `poll` returns the complete lines written since the last one, read
 * from the byte offset where the last one stopped. A last line without its newline yet (a writer
 * mid-append, a torn line) waits for a later poll; a file that shrank or was replaced (renamed over,
 * as a resumed run rewrites its files) is read again from its start. A file that is not there yet
 * has no lines. Blank lines are skipped; a line that is not JSON comes back as `ok: false`.
 *
 * @example
 * const events = new JsonLinesFollower(runPaths('runs/a').events);
 * for (const line of await events.poll()) if (line.ok) console.log(line.value);
 */
export class JsonLinesFollower {
  readonly path: string;
  /** Bytes of complete lines read so far. */
  #offset = 0;
  #lineNumber = 0;
  #inode: number | undefined;
  #polls: Promise<unknown> = Promise.resolve();

  constructor(path: string) {
    this.path = path;
  }

  /** The complete lines appended since the last poll. Overlapping polls run one after another, so each line comes back once. */
  poll(): Promise<FollowedLine[]> {
    const next = this.#polls.then(
      () => this.#read(),
      () => this.#read(),
    );
    this.#polls = next;
    return next;
  }

  async #read(): Promise<FollowedLine[]> {
    let size: number;
    let inode: number;
    try {
      ({ size, ino: inode } = await stat(this.path));
    } catch {
      return []; // Not written yet.
    }
    const replaced = this.#inode !== undefined && inode !== this.#inode;
    this.#inode = inode;
    if (size < this.#offset || replaced) {
      this.#offset = 0;
      this.#lineNumber = 0;
    }
    if (size === this.#offset) return [];
    const data = Buffer.alloc(size - this.#offset);
    let filled = 0;
    const handle = await open(this.path, 'r');
    try {
      while (filled < data.length) {
        const { bytesRead } = await handle.read(data, filled, data.length - filled, this.#offset + filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
    } finally {
      await handle.close();
    }
    // Split on bytes, not characters: a multi-byte character may straddle the end of what is written.
    const lines: FollowedLine[] = [];
    let start = 0;
    for (let end = data.indexOf(0x0a, start); end !== -1 && end < filled; end = data.indexOf(0x0a, start)) {
      const raw = data.toString('utf8', start, end);
      const place = { line: ++this.#lineNumber, offset: this.#offset + start, length: end - start };
      start = end + 1;
      const text = raw.trim();
      if (text === '') continue;
      try {
        lines.push({ ok: true, value: JSON.parse(text) as unknown, ...place });
      } catch (error) {
        lines.push({ ok: false, error: `line ${place.line} of ${this.path} is not JSON (${(error as Error).message}): ${text.slice(0, 80)}`, ...place });
      }
    }
    this.#offset += start;
    return lines;
  }
}
