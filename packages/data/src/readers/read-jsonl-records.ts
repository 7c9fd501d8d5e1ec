import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { DatasetFormatError } from '../dataset-format-error';
import type { SourceRecord } from './source-record';

/**
 * Streams the records of a JSONL file one line at a time (the file is never held in memory).
 * Blank lines are skipped; a line that is not JSON comes back as an error naming the file and line.
 */
export async function* readJsonlRecords(file: string): AsyncGenerator<SourceRecord> {
  const stream = createReadStream(file, { encoding: 'utf8' });
  try {
    await new Promise<void>((resolveOpen, reject) => {
      stream.once('open', () => resolveOpen());
      stream.once('error', reject);
    });
  } catch (error) {
    throw new DatasetFormatError({ location: { file }, field: '(file)', expected: 'a readable JSONL file', received: (error as Error).message, cause: error });
  }
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  let line = 0;
  try {
    for await (const text of lines) {
      line++;
      if (text.trim().length === 0) continue;
      try {
        yield { location: { file, line }, value: JSON.parse(line === 1 ? text.replace(/^\uFEFF/, '') : text) as unknown };
      } catch (error) {
        yield {
          location: { file, line },
          error: new DatasetFormatError({ location: { file, line }, field: '(line)', expected: 'a JSON object', received: `text that is not JSON (${(error as Error).message})`, cause: error }),
        };
      }
    }
  } finally {
    lines.close();
    stream.destroy();
  }
}
