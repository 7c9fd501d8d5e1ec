import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';

/** A complete line of a JSON Lines file and where its bytes are. */
export interface JsonLine {
  text: string;
  offset: number;
  length: number;
}

/**
 * Follows an append-only JSON Lines file: each `read` returns the complete lines written since
 * the last one. A last line without its newline (a writer mid-append) waits for the next read.
 * A file that shrank (replaced by a resumed run's rewrite) is read again from the start.
 */
export class JsonLinesReader {
  #offset = 0;

  read(path: string): JsonLine[] {
    if (!existsSync(path)) return [];
    const handle = openSync(path, 'r');
    try {
      const size = fstatSync(handle).size;
      if (size < this.#offset) this.#offset = 0;
      if (size === this.#offset) return [];
      const buffer = Buffer.alloc(size - this.#offset);
      let filled = 0;
      while (filled < buffer.length) {
        const bytes = readSync(handle, buffer, filled, buffer.length - filled, this.#offset + filled);
        if (bytes === 0) break;
        filled += bytes;
      }
      const lines: JsonLine[] = [];
      let start = 0;
      for (let index = buffer.indexOf(0x0a, 0); index !== -1 && index < filled; index = buffer.indexOf(0x0a, start)) {
        if (index > start) {
          const text = buffer.toString('utf8', start, index);
          if (text.trim().length > 0) lines.push({ text, offset: this.#offset + start, length: index - start });
        }
        start = index + 1;
      }
      this.#offset += start;
      return lines;
    } finally {
      closeSync(handle);
    }
  }
}
