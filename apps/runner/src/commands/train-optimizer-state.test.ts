import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { runCli } from '../create-program';
import { EXIT_SUCCESS } from '../exit-codes';

const scratch = mkdtempSync(join(tmpdir(), 'saccade-optimizer-state-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const quiet = { log: () => {}, error: () => {} };

// Four SFT steps, then two GRPO steps; a checkpoint every two.
const config = (grpo: string, algorithm = 'grpo', sftSteps = 4): string => `
model: { preset: tiny }
seeds: { train: { start: 1000, count: 8 }, eval: { start: 0, count: 2 } }
algorithm: ${algorithm}
sft: { steps: ${sftSteps}, batchSize: 4, evalEvery: 4 }
grpo: { steps: 2, promptsPerStep: 2, groupSize: 3, maxTokens: 12, evalEvery: 2, skipUniformGroups: false${grpo} }
checkpointEvery: 2
workers: 0
`;

async function train(name: string, text: string): Promise<string> {
  const file = join(scratch, `${name}.yaml`);
  writeFileSync(file, text);
  expect((await runCli(['train', '--config', file, '--name', name, '--out', scratch, '--plain'], quiet)).exitCode).toBe(EXIT_SUCCESS);
  return join(scratch, name);
}

const manifest = (run: string, step: number) => JSON.parse(readFileSync(join(run, 'checkpoints', String(step), 'manifest.json'), 'utf8')) as { optimizer: { iterations: number } };
const saved = (run: string, step: number, file: string) => readFileSync(join(run, 'checkpoints', String(step), file));

test("optimizerState 'sft': GRPO goes on with SFT's Adam (its step count and moments), in one run and when a finished SFT run is resumed into GRPO", { timeout: 240_000 }, async () => {
  const fresh = await train('fresh', config(''));
  const continued = await train('continued', config(', optimizerState: sft'));
  // SFT is the same in both; GRPO's Adam counts its own 2 steps when fresh, SFT's 4 and its own when continued.
  expect(saved(fresh, 4, 'weights.bin').equals(saved(continued, 4, 'weights.bin'))).toBe(true);
  expect(manifest(fresh, 4).optimizer.iterations).toBe(4);
  expect(manifest(fresh, 6).optimizer.iterations).toBe(2);
  expect(manifest(continued, 6).optimizer.iterations).toBe(6);
  expect(saved(fresh, 6, 'weights.bin').equals(saved(continued, 6, 'weights.bin'))).toBe(false);

  // The bench's way: an SFT-only run, its config then given a GRPO phase, resumed.
  const start = await train('start', config('', 'sft'));
  const resumed = join(scratch, 'resumed');
  cpSync(start, resumed, { recursive: true });
  // The run's config.yaml holds every key resolved: grpo's optimizerState (before ppo's) is the first.
  const resolved = readFileSync(join(resumed, 'config.yaml'), 'utf8');
  expect(resolved.match(/optimizerState: fresh/g)).toHaveLength(2);
  writeFileSync(join(resumed, 'config.yaml'), resolved.replace(/^algorithm: sft$/m, 'algorithm: grpo').replace('optimizerState: fresh', 'optimizerState: sft'));
  expect((await runCli(['train', '--resume', resumed, '--plain'], quiet)).exitCode).toBe(EXIT_SUCCESS);
  expect(manifest(resumed, 6).optimizer.iterations).toBe(6);
  for (const file of ['weights.bin', 'optimizer.bin']) expect(saved(resumed, 6, file).equals(saved(continued, 6, file)), file).toBe(true);
});

test("optimizerState 'sft' without SFT steps warns and starts GRPO with a fresh Adam", { timeout: 120_000 }, async () => {
  const run = await train('no-sft', config(', optimizerState: sft', 'grpo', 0));
  const warnings = readFileSync(join(run, 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { type: string; level?: string; message?: string })
    .filter((event) => event.type === 'log' && event.level === 'warn');
  expect(warnings.map((event) => event.message)).toEqual([
    "optimizerState 'sft': this run has no SFT optimizer to go on with (no SFT steps, or a checkpoint without one); GRPO starts with a fresh Adam.",
  ]);
  expect(manifest(run, 2).optimizer.iterations).toBe(2);
});
