import { createReadStream } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { resolve } from 'node:path';
import { InvalidArgumentError } from '@saccade/spec';
import { parseTaskLine, readTaskFile, unreadableTaskFile, type ReadTaskFileOptions } from './read-task-file';
import { TaskFileError } from './task-file-error';
import type { VisionQATask } from './vision-qa-task';
import type { TaskSource } from './task-source';

const NEWLINE = 10;
const RETURN = 13;
const isBlankByte = (byte: number) => byte === 32 || byte === 9;

/** Where each non-blank line starts and ends in the file, and its line number. */
interface LineIndex {
  starts: number[];
  ends: number[];
  lines: number[];
}

/**
 * A task file as a source. The first `size()` or `get()` scans the file once as a stream and
 * keeps only where each line starts (a few numbers per line, so files of millions of lines fit);
 * `get(index)` then reads and validates that one line. Iteration streams the file (`readTaskFile`).
 */
export class TaskFileSource implements TaskSource {
  readonly file: string;
  readonly description: string;
  #index: Promise<LineIndex> | undefined;
  #handle: Promise<FileHandle> | undefined;

  constructor(file: string) {
    if (typeof file !== 'string' || file.length === 0) throw new InvalidArgumentError({ argument: 'taskFile', expected: 'the path of a JSONL task file', value: file });
    this.file = resolve(file);
    this.description = this.file;
  }

  async size(): Promise<number> {
    return (await this.#lineIndex()).starts.length;
  }

  async get(index: number): Promise<VisionQATask> {
    const { starts, ends, lines } = await this.#lineIndex();
    if (!Number.isInteger(index) || index < 0 || index >= starts.length) {
      throw new InvalidArgumentError({ argument: 'index', expected: `an integer from 0 to ${starts.length - 1} (${this.description} has ${starts.length} tasks)`, value: index });
    }
    this.#handle ??= open(this.file, 'r');
    const handle = await this.#handle;
    const length = ends[index]! - starts[index]!;
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, starts[index]!);
    return parseTaskLine(buffer.toString('utf8'), { file: this.description, line: lines[index]! });
  }

  [Symbol.asyncIterator](): AsyncIterator<VisionQATask> {
    return readTaskFile(this.file, {})[Symbol.asyncIterator]();
  }

  /** Streams the tasks with options (`skipInvalid`, `checkImages`). */
  read(options: ReadTaskFileOptions = {}): AsyncGenerator<VisionQATask> {
    return readTaskFile(this.file, options);
  }

  async close(): Promise<void> {
    const handle = this.#handle;
    this.#handle = undefined;
    if (handle !== undefined) await (await handle.catch(() => undefined))?.close();
  }

  #lineIndex(): Promise<LineIndex> {
    this.#index ??= this.#scan().catch((error: unknown) => {
      this.#index = undefined;
      throw TaskFileError.isInstance(error) ? error : unreadableTaskFile(this.description, error);
    });
    return this.#index;
  }

  async #scan(): Promise<LineIndex> {
    const index: LineIndex = { starts: [], ends: [], lines: [] };
    let offset = 0;
    let lineStart = 0;
    let line = 1;
    let hasContent = false;
    const endLine = (end: number) => {
      if (hasContent) {
        index.starts.push(lineStart);
        index.ends.push(end);
        index.lines.push(line);
      }
    };
    // Lines end where readline (readTaskFile's iteration) ends them: at \n, \r\n or a lone \r.
    let afterReturn = false;
    for await (const chunk of createReadStream(this.file) as AsyncIterable<Buffer>) {
      for (let i = 0; i < chunk.length; i++) {
        const byte = chunk[i]!;
        if (byte === NEWLINE && afterReturn) {
          // The \n of a \r\n: the line already ended at its \r.
          lineStart = offset + i + 1;
        } else if (byte === NEWLINE || byte === RETURN) {
          endLine(offset + i);
          lineStart = offset + i + 1;
          line++;
          hasContent = false;
        } else if (!hasContent && !isBlankByte(byte)) hasContent = true;
        afterReturn = byte === RETURN;
      }
      offset += chunk.length;
    }
    endLine(offset);
    if (index.starts.length === 0) {
      throw new TaskFileError({ file: this.description, field: '(file)', expected: 'at least one task line', received: 'an empty file' });
    }
    return index;
  }
}
