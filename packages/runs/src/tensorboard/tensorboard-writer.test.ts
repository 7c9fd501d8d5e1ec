import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { RunFolder } from '../run-folder';
import { exportTensorBoard } from './export-tensorboard';
import { TensorBoardWriter } from './tensorboard-writer';
import { readEventFile } from '../__fixtures__/read-event-file';

const scratch = mkdtempSync(join(tmpdir(), 'saccade-tensorboard-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('TensorBoard event files', () => {
  test('file_version first, then each scalar with its tag, step and wall time; every record length and CRC checks', () => {
    const folder = join(scratch, 'direct');
    const writer = TensorBoardWriter.open(folder, 1_700_000_000.5);
    writer.writeScalars(3, { 'train/loss': 0.25, 'train/kl': -1.5 }, 1_700_000_010.25);
    writer.writeScalars(2 ** 40, { big: 7 }, 1_700_000_011);
    writer.writeScalars(4, {}, 1_700_000_012);
    writer.close();
    expect(readdirSync(folder)).toEqual([expect.stringMatching(/^events\.out\.tfevents\.1700000000\.[^/]+\.\d+\.\d+$/)]);
    const events = readEventFile(writer.path);
    expect(events).toEqual([
      { wallTime: 1_700_000_000.5, step: 0, fileVersion: 'brain.Event:2', values: [] },
      { wallTime: 1_700_000_010.25, step: 3, values: [{ tag: 'train/loss', simpleValue: 0.25 }, { tag: 'train/kl', simpleValue: -1.5 }] },
      { wallTime: 1_700_000_011, step: 2 ** 40, values: [{ tag: 'big', simpleValue: 7 }] },
    ]);
    expect(() => writer.writeScalars(5, { late: 1 })).toThrow(/is closed/);
  });

  test('a flipped bit in a record fails its CRC', () => {
    const folder = join(scratch, 'corrupt');
    const writer = TensorBoardWriter.open(folder, 1_700_000_000);
    writer.writeScalars(1, { x: 1 }, 1_700_000_001);
    writer.close();
    const bytes = readFileSync(writer.path);
    bytes[bytes.length - 6]! ^= 0x10; // inside the second record's data
    writeFileSync(writer.path, bytes);
    expect(() => readEventFile(writer.path)).toThrow(/data CRC/);
  });

  test('run events become rows as in metrics.jsonl; export writes every finite metric of metrics.jsonl, and a second export replaces the first', () => {
    const run = RunFolder.create(scratch, 'run');
    const time = (seconds: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, seconds)).toISOString();
    run.appendEvent({ type: 'run-start', time: time(0), runName: 'run', config: {} });
    run.appendEvent({ type: 'update-end', time: time(1), step: 1, metrics: { loss: 2.5, learningRate: 0.001 } });
    run.appendEvent({ type: 'rollout-end', time: time(2), step: 2, episodes: 4, metrics: { 'reward/format': 0.5, meanReward: Number.NaN } });
    run.appendEvent({ type: 'eval-end', time: time(3), step: 2, metrics: { success: 0.75 } });

    const live = TensorBoardWriter.open(join(scratch, 'live'), Date.UTC(2025, 0, 1) / 1000);
    for (const event of run.readEvents()) live.writeRunEvent(event);
    live.close();
    const expected = [
      { wallTime: Date.UTC(2025, 0, 1, 0, 0, 1) / 1000, step: 1, values: [{ tag: 'train/loss', simpleValue: 2.5 }, { tag: 'train/learningRate', simpleValue: Math.fround(0.001) }] },
      { wallTime: Date.UTC(2025, 0, 1, 0, 0, 2) / 1000, step: 2, values: [{ tag: 'rollout/reward/format', simpleValue: 0.5 }] },
      { wallTime: Date.UTC(2025, 0, 1, 0, 0, 3) / 1000, step: 2, values: [{ tag: 'eval/success', simpleValue: 0.75 }] },
    ];
    expect(readEventFile(live.path).slice(1)).toEqual(expected);

    const out = join(scratch, 'exported');
    exportTensorBoard(run.path, out);
    const again = exportTensorBoard(run.path, out);
    expect(again).toMatchObject({ rows: 3, scalars: 4 });
    expect(readdirSync(out)).toHaveLength(1);
    const events = readEventFile(again.path);
    expect(events[0]).toMatchObject({ fileVersion: 'brain.Event:2', wallTime: Date.UTC(2025, 0, 1, 0, 0, 1) / 1000 });
    expect(events.slice(1)).toEqual(expected);
  });

  test('export of a folder that is no run folder says so', () => {
    expect(() => exportTensorBoard(join(scratch, 'nothing'), join(scratch, 'out'))).toThrow(/is not a run folder/);
  });
});
