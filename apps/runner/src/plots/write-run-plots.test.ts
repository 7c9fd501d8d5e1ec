import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MetricsRow } from '@saccade/runs';
import { afterAll, expect, test } from 'vitest';
import { writeRunPlots } from './write-run-plots';

const scratch = mkdtempSync(join(tmpdir(), 'saccade-plots-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

test('after RL the sampler chart draws the log-prob gap, approx. KL and clip fraction, and the rollouts-health chart their fractions', async () => {
  const time = (second: number): string => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();
  const rows: MetricsRow[] = [
    { kind: 'eval', step: 0, time: time(0), success: 0.2, formatRate: 1 },
    { kind: 'rollout', step: 1, time: time(5), meanReward: 0.2, success: 0.2, uniformGroups: 0.5, truncatedPrompts: 0, invalidActionRate: 0.1, unfinishedResponses: 0 },
    { kind: 'train', step: 1, time: time(6), loss: 0.1, entropy: 1.2, approxKl: 0.001, clipFraction: 0.02, logprobGap: 3e-7 },
    { kind: 'rollout', step: 2, time: time(10), meanReward: 0.3, success: 0.3, uniformGroups: 0.25, truncatedPrompts: 0, invalidActionRate: 0, unfinishedResponses: 0 },
    { kind: 'train', step: 2, time: time(11), loss: 0.05, entropy: 1.1, approxKl: 0.002, clipFraction: 0.05, logprobGap: 4e-7 },
  ];
  await writeRunPlots(scratch, rows);
  const files = readdirSync(join(scratch, 'plots'));
  expect(files).toEqual(expect.arrayContaining(['sampler.svg', 'sampler.png', 'rollouts-health.svg', 'rollouts-health.png']));
  const sampler = readFileSync(join(scratch, 'plots', 'sampler.svg'), 'utf8');
  for (const series of ['log-prob gap', 'approx. KL', 'clip fraction']) expect(sampler).toContain(`data-series="${series}"`);
  const health = readFileSync(join(scratch, 'plots', 'rollouts-health.svg'), 'utf8');
  for (const series of ['uniform groups', 'cut prompts', 'invalid actions', 'unfinished']) expect(health).toContain(`data-series="${series}"`);
  // Without RL metrics neither chart is drawn.
  const plain = mkdtempSync(join(scratch, 'sft-'));
  await writeRunPlots(plain, rows.filter((row) => row.kind === 'eval'));
  expect(readdirSync(join(plain, 'plots')).some((file) => file.startsWith('sampler') || file.startsWith('rollouts-health'))).toBe(false);
});
