import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { viewCommand } from './view-command';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function capture() {
  const lines: string[] = [];
  const errors: string[] = [];
  let exitCode = -1;
  return { lines, errors, output: { log: (line: string) => lines.push(line), error: (line: string) => errors.push(line) }, setExitCode: (code: number) => (exitCode = code), exitCode: () => exitCode };
}

describe('saccade view', () => {
  it('serves a folder of runs on loopback, prints the URL and stops on its signal', async () => {
    const root = mkdtempSync(join(tmpdir(), 'saccade-view-'));
    folders.push(root);
    mkdirSync(join(root, 'eval-a', 'trajectories'), { recursive: true });
    writeFileSync(join(root, 'eval-a', 'events.jsonl'), `${JSON.stringify({ type: 'run-start', time: '2026-01-01T00:00:00.000Z', runName: 'eval-a' })}\n`);
    const trajectory = { id: 't0', envId: 'saccade/FrozenLake-v1', seed: 3, agentId: 'oracle', turns: [], totalReward: 0, terminated: true, truncated: false, startedAt: '2026-01-01T00:00:01.000Z' };
    writeFileSync(join(root, 'eval-a', 'trajectories', 'episodes.jsonl'), `${JSON.stringify(trajectory)}\n`);
    const stop = new AbortController();
    const run = capture();
    const done = viewCommand(run.output, run.setExitCode, { signal: stop.signal }).parseAsync([root, '--port', '0'], { from: 'user' });
    await expect.poll(() => [run.lines.length, run.errors], { timeout: 20_000 }).toEqual([1, []]);
    const url = /^saccade view: (http:\/\/127\.0\.0\.1:\d+\/) /.exec(run.lines[0]!)?.[1];
    expect(url).toBeDefined();
    const body = (await (await fetch(`${url}api/runs`)).json()) as { runs: { name: string; envIds: string[]; agentIds: string[]; episodes: number; status: string }[] };
    expect(body.runs.map(({ name, envIds, agentIds, episodes, status }) => ({ name, envIds, agentIds, episodes, status }))).toEqual([
      { name: 'eval-a', envIds: ['saccade/FrozenLake-v1'], agentIds: ['oracle'], episodes: 1, status: 'running' },
    ]);
    stop.abort();
    await done;
    expect(run.exitCode()).toBe(0);
  });

  it('refuses a path that is not a folder with exit code 2', async () => {
    const run = capture();
    await viewCommand(run.output, run.setExitCode).parseAsync(['/nonexistent/runs', '--port', '0'], { from: 'user' });
    expect(run.errors).toEqual(['saccade view: expected a run folder or a folder of runs, but /nonexistent/runs is not a folder.']);
    expect(run.exitCode()).toBe(2);
  });
});
