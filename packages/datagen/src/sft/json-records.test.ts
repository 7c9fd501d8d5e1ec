import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GroundingFileError } from '../errors/grounding-file-error';
import { readJsonRecords, type JsonRecord } from './json-records';
import { readSftFile } from './sft-file';

const folder = mkdtempSync(join(tmpdir(), 'saccade-json-records-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function collect(records: AsyncIterable<JsonRecord>): Promise<unknown[]> {
  const all: unknown[] = [];
  for await (const record of records) all.push('value' in record ? record : { line: record.line, message: record.problem.message });
  return all;
}

/** The GroundingFileError `promise` rejects with. */
async function failure(promise: Promise<unknown>): Promise<GroundingFileError> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  if (!GroundingFileError.isInstance(error)) throw new Error(`expected a GroundingFileError, got ${String(error)}`);
  return error;
}

describe('readJsonRecords (JSONL)', () => {
  it('yields each object at its line; a line that is not JSON or not an object is a problem naming it', async () => {
    const file = join(folder, 'records.jsonl');
    writeFileSync(file, '{"a":1}\r\n\n{"b":\n[1]\n{"c":3}');
    expect(await collect(readJsonRecords(file))).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 3, message: `${file}:3: field "(line)": expected a JSON object, received text that is not JSON (Unexpected end of JSON input)` },
      { line: 4, message: `${file}:4: field "(line)": expected a JSON object, received [1]` },
      { line: 5, value: { c: 3 } },
    ]);
  });

  it('a file that cannot be read throws, naming it', async () => {
    const missing = join(folder, 'missing.jsonl');
    expect((await failure(collect(readJsonRecords(missing)))).message).toBe(
      `${missing}: field "(file)": expected a readable JSON or JSONL file, received ENOENT: no such file or directory, open '${missing}'`,
    );
  });
});

describe('readSftFile', () => {
  it('names a file that cannot be read, and the first line that is not JSON or not an object', async () => {
    const missing = join(folder, 'missing-sft.jsonl');
    expect((await failure(readSftFile(missing))).message).toBe(`${missing}: field "(file)": expected a readable JSONL SFT file, received ENOENT: no such file or directory, open '${missing}'`);
    const broken = join(folder, 'broken.jsonl');
    writeFileSync(broken, '\n{"id": ');
    const notJson = await failure(readSftFile(broken));
    expect(notJson.message).toBe(`${broken}:2: field "(line)": expected a JSON object, received text that is not JSON (Unexpected end of JSON input)`);
    expect(notJson.cause).toBeInstanceOf(SyntaxError);
    writeFileSync(broken, '"a string"\n');
    expect((await failure(readSftFile(broken))).message).toBe(`${broken}:1: field "(line)": expected a JSON object, received "a string"`);
  });
});
