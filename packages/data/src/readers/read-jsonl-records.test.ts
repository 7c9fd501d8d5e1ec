import { afterAll, describe, expect, test } from 'vitest';
import { Scratch } from '../../test/dataset-files';
import { DatasetFormatError } from '../dataset-format-error';
import { readJsonlRecords } from './read-jsonl-records';

const scratch = new Scratch();
afterAll(() => scratch.remove());

describe('readJsonlRecords', () => {
  test('yields each line’s value at its line, skips blank lines, drops a leading byte order mark, and names a line that is not JSON', async () => {
    const file = scratch.write('records.jsonl', '\uFEFF{"a":1}\r\n\r\n{"b":\n[3]');
    const seen: unknown[] = [];
    for await (const record of readJsonlRecords(file)) {
      if ('value' in record) seen.push(record);
      else seen.push({ location: record.location, message: record.error.message, isDatasetFormatError: DatasetFormatError.isInstance(record.error) });
    }
    expect(seen).toEqual([
      { location: { file, line: 1 }, value: { a: 1 } },
      { location: { file, line: 3 }, message: `${file}:3: field "(line)": expected a JSON object, received text that is not JSON (Unexpected end of JSON input)`, isDatasetFormatError: true },
      { location: { file, line: 4 }, value: [3] },
    ]);
  });

  test('a file that cannot be opened is a DatasetFormatError naming it', async () => {
    const missing = scratch.path('missing.jsonl');
    const error = await readJsonlRecords(missing).next().catch((caught: unknown) => caught);
    expect(DatasetFormatError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(`${missing}: field "(file)": expected a readable JSONL file, received ENOENT: no such file or directory, open '${missing}'`);
  });
});
