import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readEventFile } from '@saccade/runs/testing';
import { afterAll, describe, expect, test } from 'vitest';
import { runCli } from './create-program';
import { EXIT_SUCCESS, EXIT_USAGE } from './exit-codes';
import type { Output } from './output';

const scratch = mkdtempSync(join(tmpdir(), 'saccade-tensorboard-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function capture(): Output & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, log: (line) => out.push(line), error: (line) => err.push(line) };
}

/** Every (tag, step, value) of an event file, read with the test reader of the published format. */
function scalarsOf(path: string): string[] {
  const events = readEventFile(path);
  expect(events[0]).toMatchObject({ fileVersion: 'brain.Event:2' });
  return events.slice(1).flatMap((event) => event.values.map((value) => `${value.tag}@${event.step}=${value.simpleValue}`));
}

/** Every finite number of metrics.jsonl as the same triples (float32, as TensorBoard stores them). */
function scalarsOfMetrics(runFolder: string): string[] {
  return readFileSync(join(runFolder, 'metrics.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .flatMap((line) => {
      const { kind, step, time: _time, ...metrics } = JSON.parse(line) as Record<string, unknown>;
      return Object.entries(metrics)
        .filter((entry): entry is [string, number] => typeof entry[1] === 'number' && Number.isFinite(entry[1]))
        .map(([name, value]) => `${String(kind)}/${name}@${String(step)}=${Math.fround(value)}`);
    });
}

describe('TensorBoard files of a run', () => {
  test('train --tensorboard holds every metric of metrics.jsonl step for step, and export tensorboard writes the same', { timeout: 120_000 }, async () => {
    writeFileSync(join(scratch, 'small.yaml'), 'grpo: { promptsPerStep: 1, groupSize: 2, evalEvery: 1 }\n');
    const live = join(scratch, 'live');
    const output = capture();
    const { exitCode } = await runCli(
      ['train', '--preset', 'tiny', '--steps', '2', '--batch-size', '2', '--eval-every', '1', '--eval-episodes', '2', '--train-seeds', '2', '--grpo-steps', '1', '--workers', '0',
        '--config', join(scratch, 'small.yaml'), '--name', 'curves', '--out', scratch, '--tensorboard', live, '--plain'],
      output,
    );
    expect(output.err).toEqual([]);
    expect(exitCode).toBe(EXIT_SUCCESS);
    const runFolder = join(scratch, 'curves');
    const expected = scalarsOfMetrics(runFolder);
    // Updates, the GRPO phase's rollout and the held-out evaluations are all there.
    expect(expected.some((entry) => entry.startsWith('train/loss@1='))).toBe(true);
    expect(expected.some((entry) => entry.startsWith('rollout/meanReward@3='))).toBe(true);
    expect(expected.some((entry) => entry.startsWith('eval/success@2='))).toBe(true);
    const files = readdirSync(join(live, 'curves'));
    expect(files).toEqual([expect.stringMatching(/^events\.out\.tfevents\./)]);
    expect(scalarsOf(join(live, 'curves', files[0]!))).toEqual(expected);

    const exported = join(scratch, 'exported');
    const exportOutput = capture();
    expect((await runCli(['export', 'tensorboard', runFolder, '--out', exported], exportOutput)).exitCode).toBe(EXIT_SUCCESS);
    expect(exportOutput.out[0]).toMatch(new RegExp(`^${expected.length} values from \\d+ metric rows → .*exported/curves/events\\.out\\.tfevents\\.`));
    const [file] = readdirSync(join(exported, 'curves'));
    expect(scalarsOf(join(exported, 'curves', file!))).toEqual(expected);
  });

  test('eval --tensorboard writes the eval results at step 0', { timeout: 60_000 }, async () => {
    const output = capture();
    const folder = join(scratch, 'eval-curves');
    const { exitCode } = await runCli(['eval', '--env', 'saccade/FrozenLake-v1', '--agent', 'oracle', '--episodes', '2', '--name', 'oracle', '--out', scratch, '--tensorboard', folder, '--plain'], output);
    expect(exitCode).toBe(EXIT_SUCCESS);
    const [file] = readdirSync(join(folder, 'oracle'));
    const scalars = scalarsOf(join(folder, 'oracle', file!));
    expect(scalars).toEqual(scalarsOfMetrics(join(scratch, 'oracle')));
    expect(scalars).toEqual(expect.arrayContaining(['eval/success@0=1', 'eval/episodes@0=2']));
  });

  test('export tensorboard of a folder that is no run folder is a usage error', async () => {
    const output = capture();
    expect((await runCli(['export', 'tensorboard', join(scratch, 'none')], output)).exitCode).toBe(EXIT_USAGE);
    expect(output.err.join('\n')).toContain('is not a run folder');
  });
});
