import { readJsonLines } from '@saccade/core';
import { DatasetFormatError } from '../dataset-format-error';
import type { SourceRecord } from './source-record';

/**
 * Streams the records of a JSONL file one line at a time (the file is never held in memory).
 * Blank lines are skipped; a line that is not JSON comes back as an error naming the file and line.
 */
export async function* readJsonlRecords(file: string): AsyncGenerator<SourceRecord> {
  const onOpenError = (error: Error) => new DatasetFormatError({ location: { file }, field: '(file)', expected: 'a readable JSONL file', received: error.message, cause: error });
  for await (const { lineNumber: line, value, error } of readJsonLines(file, { onOpenError })) {
    yield error === undefined
      ? { location: { file, line }, value }
      : {
          location: { file, line },
          error: new DatasetFormatError({ location: { file, line }, field: '(line)', expected: 'a JSON object', received: `text that is not JSON (${error.message})`, cause: error }),
        };
  }
}
