import type { RunEvent } from '@saccade/spec';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { appendControlCommand, createControlReader } from './control-file';
import { checkpointPath, lastCheckpoint, listCheckpoints } from './checkpoints';
import { RUN_FILES, runPaths } from './run-files';
import { RunFolder } from './run-folder';
import { writeFileAtomic } from './write-file-atomic';

const scratch = (): string => mkdtempSync(join(tmpdir(), 'saccade-runs-'));
const time = '2026-01-01T00:00:00.000Z';

describe('RunFolder', () => {
  test('creates a run folder, a taken name gets -2, and writes events, metrics, config and summary', () => {
    const out = scratch();
    const first = RunFolder.create(out, 'run');
    const second = RunFolder.create(out, 'run', { checkpoints: false });
    expect(first.path).toBe(join(out, 'run'));
    expect(second.path).toBe(join(out, 'run-2'));
    expect(readdirSync(first.path)).toEqual([RUN_FILES.checkpoints]);
    expect(readdirSync(second.path)).toEqual([]);

    first.writeConfig({ env: 'saccade/FrozenLake-v1', steps: 3 });
    first.appendEvent({ type: 'update-end', step: 1, time, metrics: { loss: 0.5 } } as RunEvent);
    first.appendEvent({ type: 'checkpoint-saved', step: 1, time, path: 'checkpoints/1' } as RunEvent);
    first.appendEvent({ type: 'eval-end', step: 1, time, metrics: { success: 0.25 } } as RunEvent);
    first.writeSummary({ success: 0.25 });

    expect(readFileSync(join(first.path, 'config.yaml'), 'utf8')).toBe('env: saccade/FrozenLake-v1\nsteps: 3\n');
    expect(readFileSync(join(first.path, 'events.jsonl'), 'utf8').split('\n')).toHaveLength(4);
    expect(first.readMetrics()).toEqual([
      { kind: 'train', step: 1, time, loss: 0.5 },
      { kind: 'eval', step: 1, time, success: 0.25 },
    ]);
    expect(first.readEvents().map((event) => event.type)).toEqual(['update-end', 'checkpoint-saved', 'eval-end']);
    expect(JSON.parse(readFileSync(join(first.path, 'summary.json'), 'utf8'))).toEqual({ success: 0.25 });
    expect(RunFolder.open(first.path).path).toBe(first.path);
    expect(() => RunFolder.open(second.path)).toThrow(`${second.path} is not a run folder: it has no events.jsonl.`);
  });

  test('truncateAfter keeps steps up to the checkpoint and drops run-end; cutTornLines cuts a half line', () => {
    const folder = RunFolder.create(scratch(), 'run');
    for (const step of [1, 2, 3]) folder.appendEvent({ type: 'update-end', step, time, metrics: { loss: step } } as RunEvent);
    folder.appendEvent({ type: 'run-end', time, status: 'cancelled' } as unknown as RunEvent);
    appendFileSync(join(folder.path, 'events.jsonl'), '{"type":"update-e');
    folder.cutTornLines();
    expect(readFileSync(join(folder.path, 'events.jsonl'), 'utf8').endsWith('}\n')).toBe(true);
    folder.truncateAfter(2);
    expect(folder.readEvents().map((event) => (event as { step?: number }).step)).toEqual([1, 2]);
    expect(folder.readMetrics().map((row) => row.step)).toEqual([1, 2]);
  });

  test('truncateAfter (a resume) removes what a kill left half-written: a checkpoint being filled, temporary files', () => {
    const folder = RunFolder.create(scratch(), 'killed');
    const half = join(folder.path, 'checkpoints', '.475.tmp-4242-1763900000000');
    mkdirSync(half, { recursive: true });
    writeFileSync(join(half, 'weights.bin'), 'half');
    mkdirSync(join(folder.path, 'checkpoints', '450'), { recursive: true });
    mkdirSync(join(folder.path, 'images'), { recursive: true });
    writeFileSync(join(folder.path, 'images', 'ab12.png.4242.9f3c.tmp'), 'half');
    writeFileSync(join(folder.path, 'images', 'ab12.png'), 'whole');
    writeFileSync(join(folder.path, 'summary.json.4242-0a1b2c.tmp'), '{');
    folder.truncateAfter(450);
    expect(readdirSync(join(folder.path, 'checkpoints'))).toEqual(['450']);
    expect(readdirSync(join(folder.path, 'images'))).toEqual(['ab12.png']);
    expect(readdirSync(folder.path).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});

describe('checkpoints index', () => {
  test('lists finished checkpoints newest first and reads the newest one\'s metadata', () => {
    const run = scratch();
    expect(lastCheckpoint(run)).toBeUndefined();
    for (const step of [2, 10]) {
      mkdirSync(checkpointPath(run, step), { recursive: true });
      writeFileSync(join(checkpointPath(run, step), RUN_FILES.checkpointManifest), JSON.stringify({ metadata: { step } }));
    }
    mkdirSync(checkpointPath(run, 11)); // still being written: no manifest
    expect(listCheckpoints(run)).toEqual([
      { step: 10, path: join(run, 'checkpoints', '10') },
      { step: 2, path: join(run, 'checkpoints', '2') },
    ]);
    expect(lastCheckpoint(run)).toEqual({ step: 10, path: join(run, 'checkpoints', '10'), metadata: { step: 10 } });
    expect(() => checkpointPath(run, -1)).toThrow('Expected a checkpoint step (an integer ≥ 0), got -1.');
  });
});

describe('control file', () => {
  test('a reader sees the commands appended after it started, not before, and a half line waits', async () => {
    const run = scratch();
    await appendControlCommand(run, 'stop'); // before the (resumed) run: skipped
    let stopped = 0;
    const reader = createControlReader(run, () => stopped++, 1);
    await appendControlCommand(run, 'checkpoint', new Date(time));
    expect(readFileSync(runPaths(run).control, 'utf8').split('\n')[1]).toBe(`{"command":"checkpoint","time":"${time}"}`);
    expect(await reader.betweenSteps()).toEqual({ checkpoint: true });
    appendFileSync(runPaths(run).control, '{"command":"bogus"}\n{"command":"pa');
    expect(reader.readCommands()).toEqual([]);
    appendFileSync(runPaths(run).control, 'use"}\n');
    expect(reader.readCommands()).toEqual(['pause']);
    await appendControlCommand(run, 'stop');
    expect(await reader.betweenSteps()).toEqual({ checkpoint: false });
    expect(stopped).toBe(1);
    await expect(appendControlCommand(run, 'halt' as never)).rejects.toThrow('Expected a control command (pause, resume, checkpoint, stop), got "halt".');
  });

  test('a paused reader waits until resume', async () => {
    const run = scratch();
    const reader = createControlReader(run, () => undefined, 1);
    await appendControlCommand(run, 'pause');
    const waiting = reader.betweenSteps();
    let done = false;
    void waiting.then(() => (done = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(done).toBe(false);
    await appendControlCommand(run, 'resume');
    expect(await waiting).toEqual({ checkpoint: false });
  });
});

describe('writeFileAtomic', () => {
  test('replaces a file whole, makes its folder and leaves no temporary file', () => {
    const folder = scratch();
    const file = join(folder, 'nested', 'summary.json');
    writeFileAtomic(file, 'one');
    writeFileAtomic(file, new Uint8Array([116, 119, 111]));
    expect(readFileSync(file, 'utf8')).toBe('two');
    expect(readdirSync(join(folder, 'nested'))).toEqual(['summary.json']);
    expect(() => writeFileAtomic(join(file, 'under-a-file'), 'x')).toThrow(/ENOTDIR|EEXIST/);
  });
});
