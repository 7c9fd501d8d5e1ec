import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { DatasetFormatError } from '../dataset-format-error';
import { readJsonlRecords } from './read-jsonl-records';
import type { SourceRecord } from './source-record';

const folder = mkdtempSync(join(tmpdir(), 'saccade-jsonl-records-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function collect(records: AsyncIterable<SourceRecord>): Promise<SourceRecord[]> {
  const all: SourceRecord[] = [];
  for await (const record of records) all.push(record);
  return all;
}

describe('readJsonlRecords', () => {
  test('yields each line’s value at its line, skips blank lines, drops a leading byte order mark, and names a line that is not JSON', async () => {
    const file = join(folder, 'records.jsonl');
    writeFileSync(file, '\uFEFF{"a":1}\r\n\r\n{"b":\n[3]');
    const records = await collect(readJsonlRecords(file));
    expect(records.map((record) => ('value' in record ? record : { location: record.location, message: record.error.message }))).toEqual([
      { location: { file, line: 1 }, value: { a: 1 } },
      { location: { file, line: 3 }, message: `${file}:3: field "(line)": expected a JSON object, received text that is not JSON (Unexpected end of JSON input)` },
      { location: { file, line: 4 }, value: [3] },
    ]);
    expect('error' in records[1]! && DatasetFormatError.isInstance(records[1].error)).toBe(true);
  });

  test('a file that cannot be opened is a DatasetFormatError naming it', async () => {
    const missing = join(folder, 'missing.jsonl');
    const error = await collect(readJsonlRecords(missing)).catch((caught: unknown) => caught);
    expect(DatasetFormatError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(`${missing}: field "(file)": expected a readable JSONL file, received ENOENT: no such file or directory, open '${missing}'`);
  });
});
