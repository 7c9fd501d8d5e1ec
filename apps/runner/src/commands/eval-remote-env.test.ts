import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
// VAGEN main's GymService around a small Python env: the env-remote package's test service.
import { lineWalkSuite } from '../../../../packages/envs/remote/test/line-walk-service';
import { runCli } from '../create-program';
import { EXIT_SUCCESS } from '../exit-codes';

const KEY = 'eval-key';
const lineWalk = await lineWalkSuite("saccade eval --env saccade/Remote-v1 against VAGEN main's GymService", KEY);
const scratch = mkdtempSync(join(tmpdir(), 'saccade-remote-env-'));

describe.skipIf(lineWalk.skip)("saccade eval on an env served by VAGEN main's GymService", () => {
  lineWalk.startAroundSuite();
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  test('saccade eval --env saccade/Remote-v1 plays four episodes of the Python env: one image a turn, its rewards and success, every session closed', { timeout: 60_000 }, async () => {
    const options = {
      baseUrls: lineWalk.service.url,
      token: KEY,
      envConfig: { env_name: 'line_walk', length: 4 },
      actionSpace: { kind: 'discrete', actions: ['Left', 'Right'], maxActionsPerTurn: 1, separator: ',', format: 'free_think' },
    };
    const lines: string[] = [];
    const run = await runCli(['eval', '--env', 'saccade/Remote-v1', '--env-options', JSON.stringify(options), '--agent', 'random', '--episodes', '4', '--max-turns', '8', '--out', scratch, '--name', 'remote', '--plain'], {
      log: (line) => lines.push(line),
      error: (line) => lines.push(line),
    });
    expect(run.exitCode, lines.join('\n')).toBe(EXIT_SUCCESS);
    const episodes = readFileSync(join(scratch, 'remote', 'trajectories', 'episodes.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { seed: number; error?: unknown; totalReward: number; turns: { reward: number; terminated: boolean; truncated: boolean; observation: { text: string; images: unknown[] }; info: { metrics: Record<string, unknown> } }[] });
    expect(episodes.map((episode) => episode.seed).sort()).toEqual([0, 1, 2, 3]);
    for (const { error, turns, totalReward } of episodes) {
      expect(error).toBeUndefined();
      expect(turns.length).toBeGreaterThan(0);
      expect(turns.length).toBeLessThanOrEqual(8);
      for (const turn of turns) {
        // The random agent writes a valid move every turn; the observation it acted on had one image.
        expect(turn.observation.images).toHaveLength(1);
        expect(turn.observation.text).toMatch(/^You are at cell \d\. <image>$/);
        expect(turn.info.metrics.action_is_valid).toBe(true);
        expect(turn.reward).toBe(turn.info.metrics.success ? 1 : 0);
      }
      const last = turns.at(-1)!;
      // An episode ends on arrival (reward 1, success) or at the turn cap.
      expect(last.terminated ? [last.info.metrics.success, totalReward] : [last.truncated, totalReward]).toEqual([true, last.terminated ? 1 : 0]);
    }
    const sessions = (await (await fetch(`${lineWalk.service.url}/sessions?token=${KEY}`)).json()) as { num_sessions: number };
    expect(sessions.num_sessions).toBe(0);
  });
});
