import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { saveCheckpoint, VisionLanguageModel } from '@saccade/models';
import { initTensor } from '@saccade/tensor';
import { afterAll, expect, test } from 'vitest';
import { runCli } from '../create-program';
import { EXIT_SUCCESS } from '../exit-codes';

const cli = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'cli.js');
const scratch = mkdtempSync(join(tmpdir(), 'saccade-serve-run-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const quiet = { log: () => {}, error: () => {} };
// Each episode's actions, by seed (episodes are stored as they end).
const actions = (run: string): string[][] =>
  readFileSync(join(scratch, run, 'trajectories', 'episodes.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { seed: number; turns: { action: string }[] })
    .sort((a, b) => a.seed - b.seed)
    .map((trajectory) => trajectory.turns.map((turn) => turn.action));

test('a served training run answers the env full prompt as the policy does in training: greedy eval over HTTP equals eval --agent policy', { timeout: 120_000 }, async () => {
  // A training run folder as `saccade train` leaves it: config (images-only view, no history), events, a checkpoint.
  await initTensor();
  const run = join(scratch, 'run');
  mkdirSync(join(run, 'checkpoints'), { recursive: true });
  writeFileSync(join(run, 'config.yaml'), 'env:\n  id: saccade/FrozenLake-v1\n  options: { format: no_think, observation: vision, maxActionsPerTurn: 1 }\n  maxTurns: 3\npolicyView: image\nhistoryWindow: 0\n');
  writeFileSync(join(run, 'events.jsonl'), '');
  const model = VisionLanguageModel.create({ preset: 'small', seed: 3 });
  await saveCheckpoint(join(run, 'checkpoints', '1'), { model, metadata: { step: 1, phase: 'sft', complete: true } });
  model.dispose();
  const common = ['--episodes', '3', '--max-tokens', '12', '--temperature', '0', '--out', scratch];

  const policy = await runCli(['eval', '--agent', 'policy', '--checkpoint', run, ...common, '--name', 'policy'], quiet);
  expect(policy.exitCode).toBe(EXIT_SUCCESS);

  const child = spawn(process.execPath, [cli, 'serve', 'model', '--checkpoint', run, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const notes: string[] = [];
  child.stderr.on('data', (chunk: Buffer) => notes.push(chunk.toString()));
  try {
    const first = (await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next()).value as string;
    const url = /listening on (\S+)/.exec(first)?.[1];
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(notes.join('')).toContain('as its run trained it: image view, history window 0');
    // The OpenAI agent sends the env's whole prompt (system prompt, instructions, image); the server reads it as the run did.
    const served = await runCli(['eval', '--env', 'saccade/FrozenLake-v1', '--env-options', '{"format":"no_think","observation":"vision","maxActionsPerTurn":1}', '--max-turns', '3', '--agent', 'openai', '--base-url', `${url}/v1`, '--model', 'saccade-small-vlm', ...common, '--name', 'served'], quiet);
    expect(served.exitCode).toBe(EXIT_SUCCESS);
  } finally {
    child.kill('SIGTERM');
  }
  expect(actions('served')).toEqual(actions('policy'));
  const summary = (name: string): unknown => (JSON.parse(readFileSync(join(scratch, name, 'summary.json'), 'utf8')) as { success: unknown }).success;
  expect(summary('served')).toEqual(summary('policy'));
});
