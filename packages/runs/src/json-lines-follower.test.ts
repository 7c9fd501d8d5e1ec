import { appendFileSync, mkdtempSync, openSync, readSync, closeSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { JsonLinesFollower } from './json-lines-follower';

function temporaryFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'saccade-runs-follow-')), 'events.jsonl');
}

test('follows appends and waits for a torn last line to be finished', async () => {
  const path = temporaryFile();
  const follower = new JsonLinesFollower(path);
  expect(await follower.poll()).toEqual([]); // Not there yet.
  writeFileSync(path, '{"a":1}\n{"b":');
  expect(await follower.poll()).toEqual([{ ok: true, value: { a: 1 }, line: 1, offset: 0, length: 7 }]);
  expect(await follower.poll()).toEqual([]);
  // The rest of the line, with a character split across two writes.
  const snowman = Buffer.from('"☃"}\n');
  appendFileSync(path, snowman.subarray(0, 2));
  expect(await follower.poll()).toEqual([]);
  appendFileSync(path, Buffer.concat([snowman.subarray(2), Buffer.from('not json\n\n{"c":3}\n')]));
  const lines = await follower.poll();
  // '{"b":"☃"}' is 11 bytes (the snowman is 3); 'not json' 8; the blank line 0.
  expect(lines).toHaveLength(3);
  expect(lines[0]).toEqual({ ok: true, value: { b: '☃' }, line: 2, offset: 8, length: 11 });
  expect(lines[1]).toMatchObject({ ok: false, line: 3, offset: 20, length: 8 });
  expect(lines[1]!.ok ? '' : lines[1]!.error).toBe(`line 3 of ${path} is not JSON (Unexpected token 'o', "not json" is not valid JSON): not json`);
  expect(lines[2]).toEqual({ ok: true, value: { c: 3 }, line: 5, offset: 30, length: 7 });
});

test("a line's offset and length read it back alone", async () => {
  const path = temporaryFile();
  writeFileSync(path, '{"a":"é"}\r\n  \n{"b":[1,2]}\n');
  const lines = await new JsonLinesFollower(path).poll();
  expect(lines.map(({ line, offset, length }) => [line, offset, length])).toEqual([
    [1, 0, 11],
    [3, 15, 11],
  ]);
  const handle = openSync(path, 'r');
  const second = Buffer.alloc(lines[1]!.length);
  readSync(handle, second, 0, second.length, lines[1]!.offset);
  closeSync(handle);
  expect(second.toString('utf8')).toBe('{"b":[1,2]}');
});

test('reads a shorter file, or one renamed over it, from its start', async () => {
  const path = temporaryFile();
  writeFileSync(path, '{"a":1}\n{"a":2}\n');
  const follower = new JsonLinesFollower(path);
  expect(await follower.poll()).toHaveLength(2);
  writeFileSync(path, '{"z":0}\n');
  expect(await follower.poll()).toEqual([{ ok: true, value: { z: 0 }, line: 1, offset: 0, length: 7 }]);
  // A longer file renamed into place: its size alone would not show it is another file.
  writeFileSync(`${path}.new`, '{"y":1}\n{"y":2}\n{"y":3}\n');
  renameSync(`${path}.new`, path);
  expect((await follower.poll()).map((line) => (line.ok ? line.value : line.error))).toEqual([{ y: 1 }, { y: 2 }, { y: 3 }]);
});

test('overlapping polls return each line once', async () => {
  const path = temporaryFile();
  writeFileSync(path, Array.from({ length: 50 }, (_, index) => `{"i":${index}}\n`).join(''));
  const follower = new JsonLinesFollower(path);
  const [first, second, third] = await Promise.all([follower.poll(), follower.poll(), follower.poll()]);
  expect(first).toHaveLength(50);
  expect(second).toEqual([]);
  expect(third).toEqual([]);
});
