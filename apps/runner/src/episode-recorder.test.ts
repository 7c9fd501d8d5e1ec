import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import type { ImageData, RunEvent, Trajectory } from '@saccade/spec';
import { afterAll, describe, expect, test } from 'vitest';
import { createEpisodeRecorder } from './episode-recorder';

const scratch = mkdtempSync(join(tmpdir(), 'saccade-episode-store-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** An image of `size` bytes, and a one-turn episode that shows it. */
function episode(id: string, phase: 'grpo' | 'eval', step: number, size: number): { trajectory: Trajectory; images: Map<string, ImageData> } {
  const data = new Uint8Array(size).fill(phase === 'eval' ? 200 + step : step);
  const hash = createHash('sha256').update(data).digest('hex');
  const image: ImageData = { data, mediaType: 'image/png', width: 4, height: 4 };
  const trajectory: Trajectory = {
    id,
    envId: 'test/Env-v1',
    seed: step,
    agentId: 'saccade/small-vlm',
    turns: [
      {
        observation: { text: '<image>', images: [{ hash, mediaType: 'image/png', width: 4, height: 4 }] },
        action: '<answer>Up</answer>',
        reward: 1,
        rewardTerms: {},
        terminated: true,
        truncated: false,
        info: {},
        timing: { agentMs: 1, envMs: 1 },
      },
    ],
    totalReward: 1,
    terminated: true,
    truncated: false,
    startedAt: '2026-11-26T00:00:00.000Z',
    training: { phase, step, sequences: [] },
  };
  return { trajectory, images: new Map([[hash, image]]) };
}

describe('createEpisodeRecorder', () => {
  test('stores the steps it wants (every trainEvery-th) and evaluations in their files, images beside them', async () => {
    const folder = join(scratch, 'run');
    const events: RunEvent[] = [];
    const { recorder, close } = await createEpisodeRecorder(folder, { trainEvery: 5, evaluations: true, maxMegabytes: 10 }, (event) => events.push(event));
    expect([1, 4, 5, 9, 10].map((step) => recorder.wants('grpo', step))).toEqual([false, false, true, false, true]);
    expect(recorder.wants('ppo', 15)).toBe(true);
    expect(recorder.wants('eval', 3)).toBe(true);
    const training = episode('s5-0-0', 'grpo', 5, 100);
    await recorder.record([training.trajectory], training.images);
    const evaluation = episode('e5-0-0', 'eval', 5, 100);
    await recorder.record([evaluation.trajectory], evaluation.images);
    await close();
    const lines = (name: string) => readFileSync(join(folder, 'trajectories', `${name}.jsonl`), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Trajectory);
    expect(lines('training')).toEqual([training.trajectory]);
    expect(lines('evaluations')).toEqual([evaluation.trajectory]);
    expect(readdirSync(join(folder, 'trajectories', 'images'))).toHaveLength(2);
    expect(events).toEqual([]);
  });

  test('stops at its byte budget, says so once, and counts a resumed run’s files; trainEvery 0 and evaluations false store nothing', async () => {
    const folder = join(scratch, 'budget');
    const events: RunEvent[] = [];
    // 0.002 MB: a 1,500-byte image and its line pass it.
    const first = await createEpisodeRecorder(folder, { trainEvery: 1, evaluations: true, maxMegabytes: 0.002 }, (event) => events.push(event));
    const small = episode('s1-0-0', 'grpo', 1, 1500);
    expect(first.recorder.wants('grpo', 1)).toBe(true);
    await first.recorder.record([small.trajectory], small.images);
    expect(first.recorder.wants('grpo', 2)).toBe(false);
    expect(first.recorder.wants('eval', 2)).toBe(false);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'log', level: 'warn', message: 'The episode store reached its 0.002 MB (episodeStore.maxMegabytes) at step 1; later episodes are not stored.' });
    const stored = statSync(join(folder, 'trajectories', 'training.jsonl')).size;
    expect(events[0]?.type === 'log' && events[0].data?.['bytes']).toBe(stored + 1500);
    await first.close();
    // Resumed: the files already there count, so the store is full from the start.
    const resumed = await createEpisodeRecorder(folder, { trainEvery: 1, evaluations: true, maxMegabytes: 0.004 }, () => {});
    const next = episode('s2-0-0', 'grpo', 2, 1500);
    await resumed.recorder.record([next.trajectory], next.images);
    expect(resumed.recorder.wants('grpo', 3)).toBe(false);
    await resumed.close();
    const none = await createEpisodeRecorder(join(scratch, 'none'), { trainEvery: 0, evaluations: false, maxMegabytes: 10 }, () => {});
    expect([none.recorder.wants('grpo', 10), none.recorder.wants('ppo', 1), none.recorder.wants('eval', 0)]).toEqual([false, false, false]);
    await none.close();
  });
});
