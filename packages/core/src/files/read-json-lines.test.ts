import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readJsonLines, type JsonLine } from './read-json-lines';

const folder = mkdtempSync(join(tmpdir(), 'saccade-json-lines-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

let files = 0;
function fileWith(content: string): string {
  const file = join(folder, `${files++}.jsonl`);
  writeFileSync(file, content);
  return file;
}

async function collect(lines: AsyncIterable<JsonLine>): Promise<JsonLine[]> {
  const all: JsonLine[] = [];
  for await (const line of lines) all.push(line);
  return all;
}

/** What `promise` rejects with (undefined when it resolves). */
const rejection = (promise: Promise<unknown>): Promise<unknown> => promise.then(() => undefined, (error: unknown) => error);

/** `promise`, or a rejection naming `what` once `ms` pass (a lazy reader never waits for the file's end). */
function within<T>(promise: Promise<T>, what: string, ms = 5_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not come within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

describe('readJsonLines', () => {
  it('yields each non-blank line with its number, text and value, a last line without a newline included', async () => {
    const file = fileWith('{"a":1}\n\n   \t\n[2, 3]\n"x"\nnull');
    expect(await collect(readJsonLines(file))).toEqual([
      { lineNumber: 1, text: '{"a":1}', value: { a: 1 } },
      { lineNumber: 4, text: '[2, 3]', value: [2, 3] },
      { lineNumber: 5, text: '"x"', value: 'x' },
      { lineNumber: 6, text: 'null', value: null },
    ]);
  });

  it('ends lines at CRLF (and a lone CR) without keeping the CR', async () => {
    const file = fileWith('{"a":1}\r\n\r\n{"b":2}\r\n3\r4\r\n');
    expect(await collect(readJsonLines(file))).toEqual([
      { lineNumber: 1, text: '{"a":1}', value: { a: 1 } },
      { lineNumber: 3, text: '{"b":2}', value: { b: 2 } },
      { lineNumber: 4, text: '3', value: 3 },
      { lineNumber: 5, text: '4', value: 4 },
    ]);
  });

  it('yields a line that is not JSON with its number and the SyntaxError, and reads on', async () => {
    const file = fileWith('{"a":1}\n{"id": "x", "dataset": \n\n{"b":2}\n');
    const lines = await collect(readJsonLines(file));
    expect(lines.map(({ lineNumber, text, value }) => ({ lineNumber, text, value }))).toEqual([
      { lineNumber: 1, text: '{"a":1}', value: { a: 1 } },
      { lineNumber: 2, text: '{"id": "x", "dataset": ', value: undefined },
      { lineNumber: 4, text: '{"b":2}', value: { b: 2 } },
    ]);
    expect(lines[1]!.error).toBeInstanceOf(SyntaxError);
    expect(lines[1]!.error!.message).toBe('Unexpected end of JSON input');
    expect(lines[0]!.error).toBeUndefined();
  });

  it('drops a byte order mark at the start of a line before parsing, and keeps it in the text', async () => {
    const file = fileWith('\uFEFF{"a":1}\n\uFEFF\n\uFEFF{"b":2}\n');
    expect(await collect(readJsonLines(file))).toEqual([
      { lineNumber: 1, text: '\uFEFF{"a":1}', value: { a: 1 } },
      { lineNumber: 3, text: '\uFEFF{"b":2}', value: { b: 2 } },
    ]);
  });

  it('yields nothing for an empty file', async () => {
    expect(await collect(readJsonLines(fileWith('')))).toEqual([]);
  });

  it('throws the open error as it came, or as onOpenError maps it', async () => {
    const missing = join(folder, 'missing.jsonl');
    const raw = await rejection(collect(readJsonLines(missing)));
    expect(raw).toMatchObject({ code: 'ENOENT', message: `ENOENT: no such file or directory, open '${missing}'` });
    const seen: unknown[] = [];
    const mapped = await rejection(
      collect(
        readJsonLines(missing, {
          onOpenError: (error) => {
            seen.push(error);
            return new RangeError(`cannot read ${missing}: ${(error as NodeJS.ErrnoException).code}`, { cause: error });
          },
        }),
      ),
    );
    expect(mapped).toBeInstanceOf(RangeError);
    expect((mapped as Error).message).toBe(`cannot read ${missing}: ENOENT`);
    expect(seen).toEqual([(mapped as Error).cause]);
    // A file that opens never calls it.
    expect(await collect(readJsonLines(fileWith('1\n'), { onOpenError: () => new Error('called') }))).toEqual([{ lineNumber: 1, text: '1', value: 1 }]);
  });

  it('stops with the signal’s reason once it aborts', async () => {
    const controller = new AbortController();
    const lines = readJsonLines(fileWith('1\n2\n3\n'), { signal: controller.signal });
    expect((await lines.next()).value).toEqual({ lineNumber: 1, text: '1', value: 1 });
    controller.abort(new Error('stopped by the test'));
    expect(await rejection(lines.next())).toEqual(new Error('stopped by the test'));
    expect(await lines.next()).toEqual({ done: true, value: undefined });
  });

  it('streams a large file: 200,000 lines in order, and stops after a few when the consumer breaks', async () => {
    const count = 200_000;
    const file = fileWith(Array.from({ length: count }, (_, index) => `{"index":${index},"pad":"${'x'.repeat(40)}"}`).join('\n'));
    let seen = 0;
    let last: JsonLine | undefined;
    for await (const line of readJsonLines(file)) {
      if ((line.value as { index: number }).index !== seen) throw new Error(`line ${line.lineNumber} holds index ${JSON.stringify(line.value)}, expected ${seen}`);
      seen++;
      last = line;
    }
    expect(seen).toBe(count);
    expect(last!.lineNumber).toBe(count);
    const first: number[] = [];
    for await (const line of readJsonLines(file)) {
      first.push(line.lineNumber);
      if (first.length === 3) break;
    }
    expect(first).toEqual([1, 2, 3]);
  });

  it.skipIf(process.platform === 'win32')('yields each line as it is written, before the file ends, and closes the file when the consumer stops', async () => {
    // A named pipe: its later lines do not exist yet when the first is read.
    const pipe = join(folder, 'pipe.jsonl');
    execFileSync('mkfifo', [pipe]);
    const lines = readJsonLines(pipe);
    const first = lines.next();
    const writer = createWriteStream(pipe);
    writer.write('{"a":1}\n');
    expect((await within(first, 'the first line')).value).toEqual({ lineNumber: 1, text: '{"a":1}', value: { a: 1 } });
    writer.write('\n{"b":2}\n');
    expect((await within(lines.next(), 'the third line')).value).toEqual({ lineNumber: 3, text: '{"b":2}', value: { b: 2 } });
    // The consumer stops: the reader closes its end (once the read it has waiting on the pipe
    // returns), so writing goes on only until a write finds no reader.
    expect(await lines.return()).toEqual({ done: true, value: undefined });
    let broken: NodeJS.ErrnoException | undefined;
    writer.once('error', (error) => (broken = error));
    // An open reader would take 300 lines of 8 bytes without an error (a pipe holds 64 KiB).
    for (let tries = 0; broken === undefined && tries < 300; tries++) {
      writer.write('{"c":3}\n');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    writer.destroy();
    expect(broken?.code).toBe('EPIPE');
  });
});
