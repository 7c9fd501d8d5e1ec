import { documentRecords } from './document-records';
import { readJsonlRecords } from './read-jsonl-records';
import type { SourceRecord } from './source-record';

/** The records of a `.jsonl` file (streamed, one a line) or of a JSON array document. */
export async function* jsonOrJsonlRecords(file: string): AsyncGenerator<SourceRecord> {
  if (/\.jsonl$/i.test(file)) yield* readJsonlRecords(file);
  else yield* await documentRecords(file);
}
