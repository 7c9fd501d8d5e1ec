import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const cli = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'cli.js');

test('saccade serve env answers /health, and SIGTERM stops it cleanly', { timeout: 60_000 }, async () => {
  const child = spawn(process.execPath, [cli, 'serve', 'env', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const first = (await lines.next()).value as string;
  const url = /listening on (\S+)/.exec(first)?.[1];
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  const response = await fetch(`${url}/health`);
  expect(response.status).toBe(200);
  // The runner passes VAGEN's names and the built-in envs to the service.
  const health = (await response.json()) as { registered_envs: string[] };
  expect(health.registered_envs.slice(0, 3)).toEqual(['frozenlake', 'sokoban', 'svg']);
  expect(health.registered_envs).toContain('saccade/FrozenLake-v1');
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
});

test('a port out of range is a usage error', { timeout: 60_000 }, async () => {
  const child = spawn(process.execPath, [cli, 'serve', 'env', '--port', '70000'], { stdio: 'ignore' });
  expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(2);
});

test('saccade serve reward scores an answer with the dataset checker', { timeout: 60_000 }, async () => {
  const child = spawn(process.execPath, [cli, 'serve', 'reward', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const url = /listening on (\S+)/.exec((await lines.next()).value as string)?.[1];
  const response = await fetch(`${url}/score`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ items: [{ data_source: 'ChartQA', solution_str: '<answer>45%</answer>', ground_truth: '0.45' }] }) });
  expect(((await response.json()) as { scores: { score: number }[] }).scores[0]!.score).toBe(1);
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
});

// One router over two processes for both protocols (without a key, plugins.test.ts serves VAGEN batches over two workers).
test('saccade serve env --workers 2 with $SACCADE_API_KEY: VAGEN batches and VAGEN main sessions across both workers behind one address, the key asked of all but /health', { timeout: 60_000 }, async () => {
  const child = spawn(process.execPath, [cli, 'serve', 'env', '--port', '0', '--workers', '2'], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, SACCADE_API_KEY: 'serve-key' } });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const first = (await lines.next()).value as string;
  expect(first).toContain('env router over 2 env service processes listening on');
  const url = /listening on (\S+)/.exec(first)?.[1];
  expect((await fetch(`${url}/health`)).status).toBe(200);
  // VAGEN's batch API: environments split over the two processes.
  const post = async (path: string, body: unknown) =>
    (await fetch(`${url}${path}?token=serve-key`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json() as Promise<Record<string, Record<string, unknown>>>;
  const ids = ['a', 'b', 'c', 'd'];
  expect((await fetch(`${url}/environments`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ids2configs: {} }) })).status).toBe(401);
  expect(await post('/environments', { ids2configs: Object.fromEntries(ids.map((id) => [id, { env_name: 'frozenlake', env_config: { render_mode: 'text' } }])) })).toEqual({ success: true });
  const reset = await post('/batch/reset', { ids2seeds: Object.fromEntries(ids.map((id, index) => [id, index])) });
  expect(Object.keys(reset.results!).sort()).toEqual(ids);
  const workers = (await (await fetch(`${url}/workers?token=serve-key`)).json()) as { workers: { active_environments: number }[] };
  expect(workers.workers.map((worker) => worker.active_environments)).toEqual([2, 2]);
  // VAGEN's multipart body, written out: one JSON part named data.
  const connect = (query: string) =>
    fetch(`${url}/connect${query}`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
      body: '--b\r\nContent-Disposition: form-data; name="data"\r\nContent-Type: application/json\r\n\r\n{"env_config": {"env_name": "frozenlake", "render_mode": "text"}, "seed": 3}\r\n--b--\r\n',
    });
  expect((await connect('')).status).toBe(401);
  const answers = await Promise.all([connect('?token=serve-key'), connect('?token=serve-key')]);
  const texts = await Promise.all(answers.map((answer) => answer.text()));
  expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
  expect(texts.map((text) => /"session_id": ?"(w\d)-/.exec(text)?.[1]).sort()).toEqual(['w0', 'w1']);
  const sessions = (await (await fetch(`${url}/sessions?token=serve-key`)).json()) as { num_sessions: number };
  expect(sessions.num_sessions).toBe(2);
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
});
