import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, test } from 'vitest';
import { runCli } from '../create-program';
import { EXIT_SUCCESS } from '../exit-codes';

const scratch = mkdtempSync(join(tmpdir(), 'saccade-eval-resume-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const cli = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'cli.js');
const quiet = { log: () => {}, error: () => {} };

// 300 random FrozenLake episodes, 2 samples per seed, one at a time: long enough to kill mid-way.
const args = ['eval', '--env', 'saccade/FrozenLake-v1', '--agent', 'random', '--episodes', '150', '--samples', '2', '--concurrency', '1', '--out', scratch];

function lines(file: string): string[] {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((line) => line.length > 0) : [];
}

/** The summary without wall-clock fields: what must match between runs. */
function summary(folder: string): Record<string, unknown> {
  const { seconds: _seconds, runName: _runName, ...rest } = JSON.parse(readFileSync(join(folder, 'summary.json'), 'utf8')) as Record<string, unknown>;
  return rest;
}

test('an eval SIGKILLed mid-way and resumed loses no episode and counts none twice', { timeout: 120_000 }, async () => {
  const whole = await runCli([...args, '--name', 'whole'], quiet);
  expect(whole.exitCode).toBe(EXIT_SUCCESS);

  const folder = join(scratch, 'killed');
  const stored = join(folder, 'trajectories', 'episodes.jsonl');
  const child = spawn(process.execPath, [cli, ...args, '--name', 'killed'], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  while (lines(stored).length < 40) {
    if (child.exitCode !== null) throw new Error(`the eval ended (exit ${child.exitCode}) before it was killed`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  child.kill('SIGKILL');
  await exited;
  const before = lines(stored).length;
  expect(before).toBeLessThan(300);
  expect(existsSync(join(folder, 'summary.json'))).toBe(false);

  const resumed = await runCli(['eval', '--resume', folder], quiet);
  expect(resumed.exitCode).toBe(EXIT_SUCCESS);
  const keys = lines(stored).map((line) => {
    const { metadata } = JSON.parse(line) as { metadata: { evalSeed: number; sample: number } };
    return `${metadata.evalSeed}:${metadata.sample}`;
  });
  expect(keys).toHaveLength(300);
  expect(new Set(keys).size).toBe(300);
  expect(summary(folder)).toEqual(summary(join(scratch, 'whole')));
  const events = lines(join(folder, 'events.jsonl')).map((line) => JSON.parse(line) as { type: string });
  expect(events.filter((event) => event.type === 'run-start')).toHaveLength(2);
  expect(events.filter((event) => event.type === 'eval-end')).toHaveLength(1);
});
