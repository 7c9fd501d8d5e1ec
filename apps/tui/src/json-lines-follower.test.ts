import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { JsonLinesFollower } from './json-lines-follower';

test('follows appends and waits for a torn last line to be finished', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'saccade-tui-')), 'events.jsonl');
  const follower = new JsonLinesFollower(path);
  expect(await follower.poll()).toEqual([]); // Not there yet.
  writeFileSync(path, '{"a":1}\n{"b":');
  expect(await follower.poll()).toEqual([{ ok: true, value: { a: 1 }, line: 1 }]);
  expect(await follower.poll()).toEqual([]);
  // The rest of the line, with a character split across two writes.
  const snowman = Buffer.from('"☃"}\n');
  appendFileSync(path, snowman.subarray(0, 2));
  expect(await follower.poll()).toEqual([]);
  appendFileSync(path, Buffer.concat([snowman.subarray(2), Buffer.from('not json\n\n{"c":3}\n')]));
  const lines = await follower.poll();
  expect(lines[0]).toEqual({ ok: true, value: { b: '☃' }, line: 2 });
  expect(lines[1]).toMatchObject({ ok: false, line: 3 });
  expect(lines[1]!.ok ? '' : lines[1]!.error).toContain('line 3 of');
  expect(lines[2]).toEqual({ ok: true, value: { c: 3 }, line: 5 });
});

test('reads a replaced (shorter) file from its start', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'saccade-tui-')), 'events.jsonl');
  writeFileSync(path, '{"a":1}\n{"a":2}\n');
  const follower = new JsonLinesFollower(path);
  expect(await follower.poll()).toHaveLength(2);
  writeFileSync(path, '{"z":0}\n');
  expect(await follower.poll()).toEqual([{ ok: true, value: { z: 0 }, line: 1 }]);
});
