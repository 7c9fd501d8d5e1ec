import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Trajectory } from '@saccade/spec';
import { afterAll, describe, expect, it } from 'vitest';
import { streamTrajectories, type UnreadableLine } from './stream-trajectories';

const folder = mkdtempSync(join(tmpdir(), 'saccade-stream-trajectories-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const line = (id: string) =>
  JSON.stringify({
    id,
    envId: 'test/A-v1',
    seed: 0,
    agentId: 'mock',
    turns: [{ observation: { text: 'see', images: [] }, action: 'ok', reward: 0, rewardTerms: {}, terminated: true, truncated: false, info: {} }],
  });

async function ids(trajectories: AsyncIterable<Trajectory>): Promise<string[]> {
  const all: string[] = [];
  for await (const trajectory of trajectories) all.push(trajectory.id);
  return all;
}

describe('streamTrajectories', () => {
  it('reads CRLF and blank lines with the file’s line numbers; names a torn last line and a broken middle one', async () => {
    const file = join(folder, 'rollouts.jsonl');
    writeFileSync(file, `${line('a')}\r\n\r\n{"id": \r\n${line('b')}\r\n\n{"id": "c", "envId": `);
    const torn: UnreadableLine[] = [];
    const invalid: UnreadableLine[] = [];
    expect(await ids(streamTrajectories(file, { skipInvalid: true, onInvalidLine: (entry) => invalid.push(entry), onTornLine: (entry) => torn.push(entry) }))).toEqual(['a', 'b']);
    expect(invalid).toEqual([{ line: 3, text: '{"id": ', reason: 'invalid JSON (Unexpected end of JSON input)' }]);
    expect(torn).toEqual([{ line: 6, text: '{"id": "c", "envId": ', reason: 'invalid JSON (Unexpected end of JSON input)' }]);
    await expect(ids(streamTrajectories(file))).rejects.toThrow(`${file}:3: not a trajectory: invalid JSON (Unexpected end of JSON input)`);
  });

  it('throws the open error of a missing file as it came, and stops with the signal’s reason', async () => {
    const missing = join(folder, 'missing.jsonl');
    await expect(ids(streamTrajectories(missing))).rejects.toMatchObject({ code: 'ENOENT', message: `ENOENT: no such file or directory, open '${missing}'` });
    const file = join(folder, 'three.jsonl');
    writeFileSync(file, `${line('a')}\n${line('b')}\n${line('c')}\n`);
    const controller = new AbortController();
    const read: string[] = [];
    const stopped = (async () => {
      for await (const trajectory of streamTrajectories(file, { signal: controller.signal })) {
        read.push(trajectory.id);
        controller.abort(new Error('stopped by the test'));
      }
    })();
    await expect(stopped).rejects.toThrow('stopped by the test');
    expect(read).toEqual(['a']);
  });
});
