import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RUN_FILES } from '@saccade/runs';
import { afterAll, expect, test } from 'vitest';
import { readTrainedRun } from './trained-run';

const scratch = mkdtempSync(join(tmpdir(), 'saccade-trained-run-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A run folder with this config.yaml and a checkpoint folder (its manifest only: nothing here loads it). */
function runWith(name: string, config: string): string {
  const run = join(scratch, name);
  const checkpoint = join(run, 'checkpoints', '240');
  mkdirSync(checkpoint, { recursive: true });
  writeFileSync(join(run, 'config.yaml'), config);
  writeFileSync(join(run, 'events.jsonl'), '');
  writeFileSync(join(checkpoint, RUN_FILES.checkpointManifest), '{}');
  return checkpoint;
}

test("a run's checkpoint is evaluated with the response budget of the run's last phase", () => {
  const env = 'env:\n  id: saccade/VisualSearch-v1\n  maxTurns: 4\npolicyView: no-system\nhistoryWindow: 4\n';
  // SFT only (GRPO 0 steps): SFT's evaluations' 96 tokens, which a visual-search call needs.
  expect(readTrainedRun(runWith('sft-only', `${env}sft:\n  maxTokens: 96\ngrpo:\n  steps: 0\n  maxTokens: 48\n`), 'test')).toMatchObject({ maxTokens: 96, policyView: 'no-system', historyWindow: 4, maxTurns: 4 });
  // GRPO ran: its budget.
  expect(readTrainedRun(runWith('grpo', `${env}sft:\n  maxTokens: 96\ngrpo:\n  steps: 20\n  maxTokens: 64\n`), 'test')?.maxTokens).toBe(64);
  // PPO ran (algorithm: ppo): PPO's, not GRPO's.
  expect(readTrainedRun(runWith('ppo', `${env}algorithm: ppo\nsft:\n  maxTokens: 96\ngrpo:\n  steps: 110\n  maxTokens: 48\nppo:\n  steps: 100\n  maxTokens: 80\n`), 'test')?.maxTokens).toBe(80);
  // A config that says none: none (eval's own default applies).
  expect(readTrainedRun(runWith('none', env), 'test')?.maxTokens).toBeUndefined();
});
