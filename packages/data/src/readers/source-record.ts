import type { DatasetFormatError, SourceLocation } from '../dataset-format-error';

/** One record as a reader found it: its value, or why it could not be read (a line that is not JSON). */
export type SourceRecord = { location: SourceLocation; value: unknown } | { location: SourceLocation; error: DatasetFormatError };

/** The records of an array, numbered from 1. */
export function* arrayRecords(file: string, items: readonly unknown[]): Generator<SourceRecord> {
  for (const [index, value] of items.entries()) yield { location: { file, record: index + 1 }, value };
}

/** The records of an object keyed by id (ScienceQA's `problems.json`), with the key as `__key`. */
export function* keyedRecords(file: string, items: Record<string, unknown>): Generator<SourceRecord> {
  let record = 0;
  for (const [key, value] of Object.entries(items)) {
    record++;
    yield { location: { file, record }, value: typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...value, __key: key } : value };
  }
}
