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
import { EXIT_SUCCESS, EXIT_USAGE } from '../exit-codes';

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

test('a served training run reports the env it was trained on and answers its full prompt as the policy does: greedy eval --env-from over HTTP equals eval --agent policy', { timeout: 120_000 }, async () => {
  // A training run folder as `saccade train` leaves it: config (images-only view, no history), events, a checkpoint.
  await initTensor();
  const run = join(scratch, 'run');
  mkdirSync(join(run, 'checkpoints'), { recursive: true });
  writeFileSync(join(run, 'config.yaml'), 'env:\n  id: saccade/FrozenLake-v1\n  options: { format: no_think, observation: vision, maxActionsPerTurn: 1 }\n  maxTurns: 3\npolicyView: image\nhistoryWindow: 0\n');
  writeFileSync(join(run, 'events.jsonl'), '');
  const trainedOptions = { format: 'no_think', observation: 'vision', maxActionsPerTurn: 1 };
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
    expect(notes.join('')).toContain(`trained on saccade/FrozenLake-v1 with options ${JSON.stringify(trainedOptions)}, 3 turns; play it so: saccade eval --agent openai --env-from ${run} …`);
    // The model card says the same, for clients that read it.
    const card = (await (await fetch(`${url}/v1/models`)).json()) as { data: { saccade?: unknown }[] };
    expect(card.data[0]!.saccade).toEqual({ trainedOn: { env: { id: 'saccade/FrozenLake-v1', options: trainedOptions, maxTurns: 3 }, tools: [], policyView: 'image', historyWindow: 0 } });
    // The OpenAI agent sends the env's whole prompt (system prompt, instructions, image), the env set as the run played it; the server reads it as the run did.
    const served = await runCli(['eval', '--env-from', run, '--agent', 'openai', '--base-url', `${url}/v1`, '--model', 'saccade-small-vlm', ...common, '--name', 'served'], quiet);
    expect(served.exitCode).toBe(EXIT_SUCCESS);
  } finally {
    child.kill('SIGTERM');
  }
  expect(actions('served')).toEqual(actions('policy'));
  const summary = (name: string): unknown => (JSON.parse(readFileSync(join(scratch, name, 'summary.json'), 'utf8')) as { success: unknown }).success;
  expect(summary('served')).toEqual(summary('policy'));
});

test('eval --env-from takes the run\'s env, options and turn cap; a folder that is no run, or another --env, is a usage error', async () => {
  const run = join(scratch, 'settings');
  mkdirSync(join(run, 'checkpoints'), { recursive: true });
  writeFileSync(join(run, 'config.yaml'), 'env:\n  id: saccade/FrozenLake-v1\n  options: { format: no_think, observation: text, maxActionsPerTurn: 1 }\n  maxTurns: 2\ntools: []\n');
  writeFileSync(join(run, 'events.jsonl'), '');
  expect((await runCli(['eval', '--env-from', run, '--agent', 'oracle', '--episodes', '1', '--out', scratch, '--name', 'from-run'], quiet)).exitCode).toBe(EXIT_SUCCESS);
  const config = readFileSync(join(scratch, 'from-run', 'config.yaml'), 'utf8');
  expect(config).toContain('env:\n  id: saccade/FrozenLake-v1\n  options:\n    format: no_think\n    observation: text\n    maxActionsPerTurn: 1\n');
  expect(config).toContain('maxTurns: 2\n');
  const errors: string[] = [];
  const capture = { log: () => {}, error: (line: string) => errors.push(line) };
  expect((await runCli(['eval', '--env-from', scratch, '--agent', 'oracle', '--out', scratch], capture)).exitCode).toBe(EXIT_USAGE);
  expect(errors.pop()).toContain(`--env-from: expected a training run folder (one with config.yaml, as saccade train leaves it) or a checkpoint inside one, received ${scratch}`);
  expect((await runCli(['eval', '--env-from', run, '--env', 'saccade/Sokoban-v1', '--agent', 'oracle', '--out', scratch], capture)).exitCode).toBe(EXIT_USAGE);
  expect(errors.pop()).toContain('--env-from: the run played saccade/FrozenLake-v1, --env names saccade/Sokoban-v1; give one of them');
});

test("eval --env-from plays the run's tools as it set them, and its looking oracle: the two-look run's oracle crops twice", async () => {
  const run = join(scratch, 'two-look');
  mkdirSync(join(run, 'checkpoints'), { recursive: true });
  writeFileSync(
    join(run, 'config.yaml'),
    [
      'env:\n  id: saccade/VisualSearch-v1\n  options: { level: two-look }\n  maxTurns: 4',
      'tools: [search_coordinate]',
      'toolOptions:\n  search_coordinate: { seenSize: { width: 8, height: 8 }, cropSize: 128, cells: true, frame: latest }',
      'lookingOracle: { minTargetPixels: 16 }',
    ].join('\n') + '\n',
  );
  writeFileSync(join(run, 'events.jsonl'), '');
  expect((await runCli(['eval', '--env-from', run, '--agent', 'oracle', '--episodes', '2', '--out', scratch, '--name', 'two-look-oracle'], quiet)).exitCode).toBe(EXIT_SUCCESS);
  // Each episode: a crop of the overview, a closer one into it, the answer; every answer right.
  expect(actions('two-look-oracle').map((turns) => turns.map((action) => (action.includes('<tool_call>') ? 'look' : 'answer')))).toEqual([
    ['look', 'look', 'answer'],
    ['look', 'look', 'answer'],
  ]);
  expect(JSON.parse(readFileSync(join(scratch, 'two-look-oracle', 'summary.json'), 'utf8'))).toMatchObject({ success: 1 });
});
