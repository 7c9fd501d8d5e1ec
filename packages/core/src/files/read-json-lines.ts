import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

/**
 * One non-blank line of a JSON-lines file: its 1-based number, its text as read (no line ending),
 * and the value it parses to, or the `SyntaxError` that says why it is not JSON.
 */
export type JsonLine = { lineNumber: number; text: string; value: unknown; error?: undefined } | { lineNumber: number; text: string; value?: undefined; error: SyntaxError };

/** How {@link readJsonLines} reports a file that cannot be opened, and when it stops. */
export interface ReadJsonLinesOptions {
  /**
   * Turns the error that kept the file from opening (ENOENT, EACCES, …) into the caller's own,
   * which is thrown instead. Default: the error is thrown as it came.
   */
  onOpenError?: (error: Error) => Error;
  /** Checked before each line: once it aborts, reading stops with its reason. */
  signal?: AbortSignal;
}

/**
 * Streams a JSON-lines file one line at a time (readline over a file stream: a line is yielded as
 * soon as it has been read, and reading pauses while about a thousand wait unconsumed, so memory
 * stays flat whatever the file's size). Lines end
 * at `\n`, `\r\n` or `\r`; blank lines (white space only) are skipped but counted, so line numbers
 * are the file's. A byte order mark at the start of a line is dropped before parsing (an editor
 * writes one at the start of a file, and files joined with `cat` carry one per part). A line that
 * is not JSON comes back with its `error`, and reading goes on: what a bad line means is the
 * caller's to say. Stopping early (`break`, `return()`) closes the file.
 *
 * @example
 * for await (const line of readJsonLines('data/train.jsonl', { onOpenError: (error) => new Error(`cannot read data/train.jsonl: ${error.message}`) })) {
 *   if (line.error !== undefined) throw new Error(`data/train.jsonl:${line.lineNumber}: ${line.error.message}`);
 *   console.log(line.value);
 * }
 */
export async function* readJsonLines(file: string, options: ReadJsonLinesOptions = {}): AsyncGenerator<JsonLine, void, undefined> {
  const { onOpenError, signal } = options;
  const stream = createReadStream(file, { encoding: 'utf8' });
  try {
    await new Promise<void>((opened, failed) => {
      stream.once('open', () => opened());
      stream.once('error', failed);
    });
  } catch (error) {
    stream.destroy();
    throw onOpenError === undefined ? error : onOpenError(error as Error);
  }
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  let lineNumber = 0;
  try {
    for await (const text of lines) {
      lineNumber++;
      signal?.throwIfAborted();
      if (text.trim().length === 0) continue;
      let value: unknown;
      try {
        value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
      } catch (error) {
        yield { lineNumber, text, error: error as SyntaxError };
        continue;
      }
      yield { lineNumber, text, value };
    }
  } finally {
    lines.close();
    stream.destroy();
  }
}
