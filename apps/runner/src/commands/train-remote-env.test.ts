import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
// VAGEN main's GymService around a small Python env: the env-remote package's test service.
import { findPython, startLineWalkService, type LineWalkService } from '../../../../packages/envs/remote/test/line-walk-service';
import { runCli } from '../create-program';
import { EXIT_SUCCESS } from '../exit-codes';

const found = await findPython(['httpx', 'PIL', 'fastapi', 'uvicorn']);
if ('skip' in found) console.warn(`saccade train on saccade/Remote-v1 against VAGEN main's GymService: test ${found.skip}`);
const scratch = mkdtempSync(join(tmpdir(), 'saccade-train-remote-'));
const KEY = 'train-key';
let service: LineWalkService | undefined;

describe.skipIf('skip' in found)("saccade train on an env served by VAGEN main's GymService", () => {
  beforeAll(async () => {
    service = await startLineWalkService('python' in found ? found.python : 'python3', KEY);
  }, 30_000);
  afterAll(async () => {
    await service?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  test('SFT on a random agent of the remote action space, then GRPO, finishes with every step in metrics.jsonl and every session closed', { timeout: 60_000 }, async () => {
    // The remote env has no oracle: SFT plays a random agent of the action space the options declare.
    const envOptions = {
      baseUrls: service!.url,
      token: KEY,
      envConfig: { env_name: 'line_walk', length: 4 },
      actionSpace: { kind: 'discrete', actions: ['Left', 'Right'], maxActionsPerTurn: 1, separator: ',', format: 'no_think' },
    };
    const file = join(scratch, 'remote.yaml');
    writeFileSync(
      file,
      [
        `env: { id: saccade/Remote-v1, maxTurns: 4, options: ${JSON.stringify(envOptions)} }`,
        'model: { preset: tiny, config: { imageSize: 32, patchSize: 8, maxSequenceLength: 256 } }',
        'policyView: full',
        'seeds: { train: { start: 100, count: 4 }, eval: { start: 0, count: 2 } }',
        'sft: { demonstrator: random, steps: 2, batchSize: 2, evalEvery: 2, maxTokens: 12 }',
        'grpo: { steps: 2, promptsPerStep: 1, groupSize: 2, maxTokens: 12, evalEvery: 2, skipUniformGroups: false }',
        'workers: 0',
      ].join('\n'),
    );
    const lines: string[] = [];
    const { exitCode } = await runCli(['train', '--config', file, '--name', 'remote', '--out', scratch], { log: (line) => lines.push(line), error: (line) => lines.push(line) });
    expect(exitCode, lines.join('\n')).toBe(EXIT_SUCCESS);
    const metrics = readFileSync(join(scratch, 'remote', 'metrics.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    // Two SFT steps, then two GRPO steps each after its rollout on the remote env; held-out evaluations at 0, 2 and 4.
    expect(metrics.map((row) => `${String(row['kind'])}@${String(row['step'])}`)).toEqual(['eval@0', 'train@1', 'train@2', 'eval@2', 'rollout@3', 'train@3', 'rollout@4', 'train@4', 'eval@4']);
    for (const row of metrics.filter((row) => row['kind'] === 'train')) expect(Number.isFinite(row['loss'])).toBe(true);
    const sessions = (await (await fetch(`${service!.url}/sessions?token=${KEY}`)).json()) as { num_sessions: number };
    // The GRPO rollouts played the remote env without a failed episode; one update-end event a step.
    expect(metrics.filter((row) => row['kind'] === 'rollout').map((row) => row['failedEpisodes'])).toEqual([0, 0]);
    const events = readFileSync(join(scratch, 'remote', 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; status?: string });
    expect(events.filter((event) => event.type === 'update-end')).toHaveLength(4);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
    expect(sessions.num_sessions).toBe(0);
  });
});
