import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, test } from 'vitest';
import { runCli } from '../create-program';
import { EXIT_SUCCESS } from '../exit-codes';

const scratch = mkdtempSync(join(tmpdir(), 'saccade-resume-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const cli = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'cli.js');

// Six SFT steps then four GRPO steps, a checkpoint every two: small enough for seconds per phase.
const config = `
model: { preset: tiny }
seeds: { train: { start: 1000, count: 8 }, eval: { start: 0, count: 3 } }
sft: { steps: 6, batchSize: 4, evalEvery: 2 }
grpo: { steps: 4, promptsPerStep: 2, groupSize: 3, maxTokens: 12, evalEvery: 2, skipUniformGroups: false }
checkpointEvery: 2
workers: 0
episodeStore: { trainEvery: 2 }
`;

const quiet = { log: () => {}, error: () => {} };

/** Runs `saccade train` in a child and SIGKILLs it once a checkpoint of `killAt` steps exists. */
async function killAfterCheckpoint(args: string[], folder: string, killAt: number): Promise<void> {
  const child = spawn(process.execPath, [cli, 'train', ...args, '--plain'], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (;;) {
    if (existsSync(join(folder, 'checkpoints', String(killAt), 'manifest.json'))) break;
    if (child.exitCode !== null) throw new Error(`the run ended (exit ${child.exitCode}) before step ${killAt}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  child.kill('SIGKILL');
  await exited;
}

/** metrics.jsonl without wall-clock fields: what must match between runs. */
function metrics(folder: string): Record<string, unknown>[] {
  const timing = new Set(['time', 'seconds', 'tokensPerSecond', 'episodesPerSecond', 'rolloutSeconds', 'updateSeconds', 'recordSeconds']);
  return readFileSync(join(folder, 'metrics.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => Object.fromEntries(Object.entries(JSON.parse(line) as Record<string, unknown>).filter(([key]) => !timing.has(key))));
}

/** A stored trajectory file without wall-clock fields, one entry per id (the first: a resumed run plays the steps after its checkpoint again). */
function storedEpisodes(folder: string, name: string): unknown[] {
  const byId = new Map<string, unknown>();
  const lines = readFileSync(join(folder, 'trajectories', `${name}.jsonl`), 'utf8').trim().split('\n');
  for (const line of lines) {
    const { startedAt: _started, endedAt: _ended, turns, ...trajectory } = JSON.parse(line) as { id: string; startedAt: string; endedAt?: string; turns: { timing: unknown }[] };
    if (!byId.has(trajectory.id)) byId.set(trajectory.id, { ...trajectory, turns: turns.map(({ timing: _timing, ...turn }) => turn) });
  }
  return [...byId.values()];
}

test('a run killed in SFT and again in GRPO, resumed each time, ends with the metrics, weights, optimiser state and stored episodes of an uninterrupted run, bit for bit', { timeout: 300_000 }, async () => {
  const file = join(scratch, 'config.yaml');
  writeFileSync(file, config);
  const whole = await runCli(['train', '--config', file, '--name', 'whole', '--out', scratch, '--plain'], quiet);
  expect(whole.exitCode).toBe(EXIT_SUCCESS);

  const folder = join(scratch, 'killed');
  await killAfterCheckpoint(['--config', file, '--name', 'killed', '--out', scratch], folder, 2);
  await killAfterCheckpoint(['--resume', folder], folder, 8);
  const resumed = await runCli(['train', '--resume', folder, '--plain'], quiet);
  expect(resumed.exitCode).toBe(EXIT_SUCCESS);

  const expected = metrics(join(scratch, 'whole'));
  const actual = metrics(folder);
  // Nothing lost, nothing counted twice: the same rows in the same order…
  expect(actual.map((row) => `${String(row['kind'])}@${String(row['step'])}`)).toEqual(expected.map((row) => `${String(row['kind'])}@${String(row['step'])}`));
  // …with the same values, bit for bit.
  expect(actual).toEqual(expected);
  // The weights and the optimiser state (Adam's moments, step, accumulated betas) of every checkpoint the resumed
  // run holds, SFT's (2, 4, 6) and GRPO's (8, 10), are the uninterrupted run's, byte for byte.
  const steps = readdirSync(join(folder, 'checkpoints')).filter((entry) => /^\d+$/.test(entry)).map(Number).sort((a, b) => a - b);
  expect(steps).toEqual([2, 4, 6, 8, 10]);
  for (const step of steps) {
    const saved = (run: string, file: string) => readFileSync(join(run, 'checkpoints', String(step), file));
    for (const file of ['weights.bin', 'optimizer.bin']) expect(saved(folder, file).equals(saved(join(scratch, 'whole'), file)), `checkpoint ${step}: ${file}`).toBe(true);
    expect(JSON.parse(saved(folder, 'manifest.json').toString()), `checkpoint ${step}: manifest.json`).toEqual(JSON.parse(saved(join(scratch, 'whole'), 'manifest.json').toString()));
  }
  const summary = JSON.parse(readFileSync(join(folder, 'summary.json'), 'utf8')) as { status: string; steps: number };
  expect(summary).toMatchObject({ status: 'completed', steps: 10 });
  const events = readFileSync(join(folder, 'events.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string; step?: number });
  expect(events.filter((event) => event.type === 'run-end')).toHaveLength(1);
  expect(events.filter((event) => event.type === 'update-end').map((event) => event.step)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  // The stored GRPO steps (8 and 10: 6 episodes each) and evaluations (0, 2, …, 10: 3 each), records and masks included.
  const training = storedEpisodes(folder, 'training');
  expect(training.map((episode) => (episode as { id: string }).id.split('-')[0])).toEqual([...new Array(6).fill('s8'), ...new Array(6).fill('s10')]);
  expect(training).toEqual(storedEpisodes(join(scratch, 'whole'), 'training'));
  const evaluations = storedEpisodes(folder, 'evaluations');
  expect(evaluations).toHaveLength(18);
  expect(evaluations).toEqual(storedEpisodes(join(scratch, 'whole'), 'evaluations'));
});
