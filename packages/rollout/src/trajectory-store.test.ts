import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contentHash } from '@saccade/image';
import { InvalidArgumentError, TrajectoryFileError, type Trajectory } from '@saccade/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedImage } from './__fixtures__/count-env';
import { imageFileName } from './store-observation';
import { streamTrajectories, type UnreadableLine } from './stream-trajectories';
import { openTrajectoryStore } from './trajectory-store';

const here = dirname(fileURLToPath(import.meta.url));
let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'saccade-store-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

function trajectory(id: string, options: { envId?: string; reward?: number; success?: boolean; imageSeed?: number; error?: boolean } = {}): Trajectory {
  const image = options.imageSeed === undefined ? undefined : seedImage(options.imageSeed);
  const images = image === undefined ? [] : [{ hash: contentHash(image.data), mediaType: image.mediaType }];
  return {
    id,
    envId: options.envId ?? 'test/A-v1',
    seed: 0,
    agentId: 'mock',
    turns: [
      {
        observation: { text: images.length > 0 ? 'see <image>' : 'see', images },
        action: 'ok',
        reward: options.reward ?? 0,
        rewardTerms: {},
        terminated: true,
        truncated: false,
        info: { metrics: { success: options.success ?? false } },
        timing: { agentMs: 0, envMs: 0 },
      },
    ],
    totalReward: options.reward ?? 0,
    terminated: true,
    truncated: false,
    startedAt: new Date(0).toISOString(),
    ...(options.error ? { error: { name: 'Error', message: 'boom' } } : {}),
  };
}

async function collect(iterable: AsyncIterable<Trajectory>): Promise<string[]> {
  const ids: string[] = [];
  for await (const item of iterable) ids.push(item.id);
  return ids;
}

describe('openTrajectoryStore', () => {
  it('appends one line per trajectory, writes each image once, and streams them back through filters', async () => {
    const store = await openTrajectoryStore({ path: join(directory, 'filters', 'rollouts.jsonl') });
    await store.append(trajectory('a', { reward: 1, success: true, imageSeed: 1 }), [seedImage(1)]);
    await store.append(trajectory('b', { reward: 0, imageSeed: 1 }), [seedImage(1)]);
    await store.append(trajectory('c', { reward: 5, envId: 'test/B-v1', success: true, imageSeed: 2 }), [seedImage(2)]);
    await store.append(trajectory('d', { reward: -1, error: true }));
    expect(store.appended).toBe(4);
    expect((await readdir(store.imagesDirectory)).sort()).toEqual(
      [imageFileName({ hash: contentHash(seedImage(1).data), mediaType: 'image/png' }), imageFileName({ hash: contentHash(seedImage(2).data), mediaType: 'image/png' })].sort(),
    );
    const image = await store.readImage({ hash: contentHash(seedImage(2).data), mediaType: 'image/png' });
    expect(new TextDecoder().decode(image.data)).toBe('image of seed 2');

    expect(await collect(store.read())).toEqual(['a', 'b', 'c', 'd']);
    expect(await collect(store.read({ filter: { success: true } }))).toEqual(['a', 'c']);
    expect(await collect(store.read({ filter: { success: false } }))).toEqual(['b', 'd']);
    expect(await collect(store.read({ filter: { minReward: 0, maxReward: 1 } }))).toEqual(['a', 'b']);
    expect(await collect(store.read({ filter: { envId: 'test/B-v1' } }))).toEqual(['c']);
    expect(await collect(store.read({ filter: { envId: ['test/A-v1'], failed: false } }))).toEqual(['a', 'b']);
    expect(await collect(store.read({ filter: { failed: true } }))).toEqual(['d']);
    await expect(collect(store.read({ filter: { minReward: '1' as never } }))).rejects.toThrow(
      'Invalid argument filter.minReward: expected a number, received "1"',
    );
    await store.close();
    await expect(store.append(trajectory('e'))).rejects.toThrow(/expected an open store, but it was closed/);
  });

  it('refuses a trajectory that refers to an image it was not given', async () => {
    const store = await openTrajectoryStore({ path: join(directory, 'missing', 'rollouts.jsonl') });
    await expect(store.append(trajectory('a', { imageSeed: 9 }))).rejects.toThrow(InvalidArgumentError);
    await expect(store.append(trajectory('a', { imageSeed: 9 }))).rejects.toThrow(/refers to image [0-9a-f]{64}, which was neither given nor stored/);
    await store.close();
    expect(await readFile(store.path, 'utf8')).toBe('');
  });

  it('reports a torn last line, and cuts it off when the store is opened again', async () => {
    const path = join(directory, 'torn', 'rollouts.jsonl');
    const store = await openTrajectoryStore({ path });
    await store.append(trajectory('a'));
    await store.append(trajectory('b'));
    await store.close();
    const torn = JSON.stringify(trajectory('c')).slice(0, 40);
    await appendFile(path, torn);
    const reported: UnreadableLine[] = [];
    expect(await collect(streamTrajectories(path, { onTornLine: (line) => reported.push(line) }))).toEqual(['a', 'b']);
    expect(reported).toHaveLength(1);
    expect(reported[0]).toMatchObject({ line: 3, text: torn });
    expect(reported[0]?.reason).toMatch(/invalid JSON/);

    const reopened = await openTrajectoryStore({ path });
    expect(reopened.repairedBytes).toBe(40);
    await reopened.append(trajectory('d'));
    await reopened.close();
    const again: UnreadableLine[] = [];
    expect(await collect(streamTrajectories(path, { onTornLine: (line) => again.push(line) }))).toEqual(['a', 'b', 'd']);
    expect(again).toEqual([]);
  });

  it('throws on a broken line in the middle of the file unless told to skip it', async () => {
    const path = join(directory, 'corrupt.jsonl');
    await writeFile(path, `${JSON.stringify(trajectory('a'))}\n{"id": 3}\n${JSON.stringify(trajectory('b'))}\n`);
    const error = await collect(streamTrajectories(path)).catch((caught: unknown) => caught);
    expect(TrajectoryFileError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/corrupt\.jsonl:2: not a trajectory: id: /);
    const skipped: UnreadableLine[] = [];
    expect(await collect(streamTrajectories(path, { skipInvalid: true, onInvalidLine: (line) => skipped.push(line) }))).toEqual(['a', 'b']);
    expect(skipped.map((line) => line.line)).toEqual([2]);
  });

  it('leaves a readable store when the writing process is killed (SIGKILL) mid-run', async () => {
    const script = join(here, '__fixtures__', 'crash-writer.mjs');
    expect(existsSync(join(here, '..', 'dist', 'index.js')), 'the crash test runs the built package: build it first').toBe(true);
    const path = join(directory, 'crash', 'rollouts.jsonl');
    const child = spawn(process.execPath, [script, path], { stdio: ['ignore', 'pipe', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    // Kill it once a few megabytes are down, at no particular point of a write. A line is ~420 kB:
    // past 6 MB at least 13 are complete, so the check below has room whatever the timing.
    for (let waited = 0; ; waited += 20) {
      if (existsSync(path) && (await stat(path)).size > 6_000_000 + Math.random() * 1_000_000) break;
      if (waited > 30_000 || child.exitCode !== null) throw new Error(`the writer did not write: ${errors}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const torn: UnreadableLine[] = [];
    const ids = await collect(streamTrajectories(path, { onTornLine: (line) => torn.push(line) }));
    expect(ids.length).toBeGreaterThan(10);
    expect(new Set(ids).size).toBe(ids.length);
    expect(torn.length).toBeLessThanOrEqual(1);
    // Every image a complete line refers to is on disk in full.
    const images = new Set(await readdir(join(directory, 'crash', 'images')));
    for await (const stored of streamTrajectories(path)) {
      for (const turn of stored.turns) for (const image of turn.observation.images) expect(images.has(imageFileName(image))).toBe(true);
    }
    // Images are renamed into place whole: a killed image write leaves at most a *.tmp file.
    for (const name of [...images].filter((file) => !file.endsWith('.tmp'))) {
      expect(await readFile(join(directory, 'crash', 'images', name), 'utf8')).toMatch(/^image \d+ \d+$/);
    }

    // The store opens again, cuts a torn tail, and goes on appending.
    const store = await openTrajectoryStore({ path });
    expect(store.repairedBytes > 0).toBe(torn.length === 1);
    await store.append(trajectory('after-crash'));
    await store.close();
    const after: UnreadableLine[] = [];
    const idsAfter = await collect(streamTrajectories(path, { onTornLine: (line) => after.push(line) }));
    expect(idsAfter).toEqual([...ids, 'after-crash']);
    expect(after).toEqual([]);
  });
});

describe('streamTrajectories', () => {
  it('reads CRLF and blank lines with the file’s line numbers; names a torn last line and a broken middle one', async () => {
    const file = join(directory, 'crlf.jsonl');
    await writeFile(file, `${JSON.stringify(trajectory('a'))}\r\n\r\n{"id": \r\n${JSON.stringify(trajectory('b'))}\r\n\n{"id": "c", "envId": `);
    const torn: UnreadableLine[] = [];
    const invalid: UnreadableLine[] = [];
    expect(await collect(streamTrajectories(file, { skipInvalid: true, onInvalidLine: (entry) => invalid.push(entry), onTornLine: (entry) => torn.push(entry) }))).toEqual(['a', 'b']);
    expect(invalid).toEqual([{ line: 3, text: '{"id": ', reason: 'invalid JSON (Unexpected end of JSON input)' }]);
    expect(torn).toEqual([{ line: 6, text: '{"id": "c", "envId": ', reason: 'invalid JSON (Unexpected end of JSON input)' }]);
    await expect(collect(streamTrajectories(file))).rejects.toThrow(`${file}:3: not a trajectory: invalid JSON (Unexpected end of JSON input)`);
  });

  it('throws the open error of a missing file as it came, and stops with the signal’s reason', async () => {
    const missing = join(directory, 'missing.jsonl');
    await expect(collect(streamTrajectories(missing))).rejects.toMatchObject({ code: 'ENOENT', message: `ENOENT: no such file or directory, open '${missing}'` });
    const file = join(directory, 'three.jsonl');
    await writeFile(file, `${JSON.stringify(trajectory('a'))}\n${JSON.stringify(trajectory('b'))}\n${JSON.stringify(trajectory('c'))}\n`);
    const controller = new AbortController();
    const read: string[] = [];
    const stopped = (async () => {
      for await (const item of streamTrajectories(file, { signal: controller.signal })) {
        read.push(item.id);
        controller.abort(new Error('stopped by the test'));
      }
    })();
    await expect(stopped).rejects.toThrow('stopped by the test');
    expect(read).toEqual(['a']);
  });
});
