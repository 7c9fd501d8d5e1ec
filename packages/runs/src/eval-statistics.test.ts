import type { Trajectory } from '@saccade/spec';
import { describe, expect, test } from 'vitest';
import { passAtK, summarizeEval, summarizeToolUse, wilsonInterval } from './eval-statistics';

describe('wilsonInterval', () => {
  test('matches the closed form at the edges and in the middle', () => {
    // 100/100: low = n / (n + z²) = 100 / 103.8415.
    const [low, high] = wilsonInterval(100, 100);
    expect(low).toBeCloseTo(0.963007, 5);
    expect(high).toBe(1);
    // 16/100: the textbook values 0.1010–0.2442.
    const [low16, high16] = wilsonInterval(16, 100);
    expect(low16).toBeCloseTo(0.10095, 4);
    expect(high16).toBeCloseTo(0.24420, 4);
    expect(wilsonInterval(0, 10)[0]).toBe(0);
    expect(wilsonInterval(0, 0)).toEqual([0, 1]);
  });
});

describe('passAtK', () => {
  test('is the unbiased estimator 1 − C(n−c, k) / C(n, k)', () => {
    expect(passAtK(3, 1, 1)).toBeCloseTo(1 / 3, 12);
    expect(passAtK(3, 1, 2)).toBeCloseTo(2 / 3, 12);
    expect(passAtK(3, 1, 3)).toBe(1);
    expect(passAtK(5, 0, 2)).toBe(0);
    // n = 10, c = 3, k = 5: 1 − C(7, 5) / C(10, 5) = 1 − 21 / 252.
    expect(passAtK(10, 3, 5)).toBeCloseTo(1 - 21 / 252, 12);
    expect(() => passAtK(2, 1, 3)).toThrow(/at least 3 samples/);
  });
});

function trajectory(seed: number, sample: number, success: boolean, extra: { family?: string; toolCalls?: { name?: string; ok: boolean; hit?: boolean }[]; error?: boolean; truncated?: boolean } = {}): Trajectory {
  const info: Record<string, unknown> = { metrics: { success, format_correct: true } };
  if (extra.family !== undefined) info['taskFamily'] = extra.family;
  const turns = [
    ...(extra.toolCalls ? [{ observation: { text: '', images: [] }, action: 'call', reward: 0, rewardTerms: {}, terminated: false, truncated: false, info: { toolCalls: extra.toolCalls }, timing: { agentMs: 0, envMs: 0 } }] : []),
    { observation: { text: '', images: [] }, action: 'answer', reward: success ? 1 : 0, rewardTerms: {}, terminated: !extra.truncated, truncated: extra.truncated === true, info, timing: { agentMs: 0, envMs: 0 } },
  ];
  return {
    id: `${seed}-${sample}`,
    envId: 'test/Env-v1',
    seed,
    agentId: 'mock',
    turns,
    totalReward: success ? 1 : 0,
    terminated: true,
    truncated: false,
    startedAt: '2026-01-01T00:00:00Z',
    metadata: { evalSeed: seed, sample },
    ...(extra.error ? { error: { name: 'Error', message: 'down' } } : {}),
  };
}

describe('summarizeEval', () => {
  test('success with its interval, per family, pass@k over seeds, tool use', () => {
    const trajectories = [
      trajectory(0, 0, true, { family: 'chart', toolCalls: [{ name: 'zoom', ok: true }, { name: 'zoom', ok: false }] }),
      trajectory(0, 1, false, { family: 'chart' }),
      trajectory(1, 0, false, { family: 'geometry', toolCalls: [{ ok: false }] }),
      trajectory(1, 1, false, { family: 'geometry', error: true }),
    ];
    const summary = summarizeEval(trajectories, 2);
    expect(summary).toMatchObject({ episodes: 4, successes: 1, success: 0.25, failed: 1, meanReward: 0.25, formatRate: 1 });
    expect(summary.interval).toEqual(wilsonInterval(1, 4));
    expect(summary.families).toEqual({
      chart: { episodes: 2, successes: 1, success: 0.5, interval: wilsonInterval(1, 2) },
      geometry: { episodes: 2, successes: 0, success: 0, interval: wilsonInterval(0, 2) },
    });
    // Seed 0: 1 of 2 right; seed 1: none. pass@1 = (1/2 + 0) / 2, pass@2 = (1 + 0) / 2.
    expect(summary.passAtK).toEqual({ '1': 0.25, '2': 0.5 });
    expect(summary.tools).toEqual({
      calls: 3,
      invalidCalls: 2,
      callsPerEpisode: 0.75,
      invalidPerEpisode: 0.5,
      episodesWithCalls: 2,
      byTool: { zoom: { calls: 2, invalid: 1 }, '(unreadable)': { calls: 1, invalid: 1 } },
      target: null,
    });
  });

  test('the format rate counts metrics.format_correct, and the formatCorrect of turns stored before it was the one spelling', () => {
    const stored = (info: Record<string, unknown>): Trajectory => {
      const episode = trajectory(0, 0, true);
      return { ...episode, turns: episode.turns.map((turn) => ({ ...turn, info })) };
    };
    const summary = summarizeEval([stored({ metrics: { success: true, format_correct: false } }), stored({ metrics: { success: true }, formatCorrect: true }), stored({ metrics: { success: true }, formatCorrect: false }), stored({ metrics: { success: true } })], 1);
    // 3 turns say their format (the fourth says nothing), 1 of them well formed.
    expect(summary.formatRate).toBe(1 / 3);
    expect(summarizeEval([stored({ metrics: { success: true } })], 1).formatRate).toBeNull();
  });

  test('says how episodes ended and which seeds no sample solved', () => {
    const summary = summarizeEval(
      [
        trajectory(4, 0, true),
        trajectory(4, 1, false),
        trajectory(2, 0, false, { truncated: true }),
        trajectory(2, 1, false),
        trajectory(9, 0, false, { error: true }),
        trajectory(9, 1, false),
        trajectory(7, 0, true),
        trajectory(7, 1, true),
      ],
      2,
    );
    expect(summary.endings).toEqual({ success: 3, terminated: 3, truncated: 1, errored: 1 });
    expect(summary.neverSolved).toEqual([2, 9]);
  });

  test('without a task family the env id is the family; one sample gives no pass@k', () => {
    const summary = summarizeEval([trajectory(0, 0, true)], 1);
    expect(Object.keys(summary.families)).toEqual(['test/Env-v1']);
    expect(summary.passAtK).toBeUndefined();
  });
});

describe('summarizeToolUse', () => {
  test('looks that held the target: the share of episodes, and success with and without one', () => {
    const crop = (hit: boolean) => ({ name: 'search_coordinate', ok: true, hit });
    const summary = summarizeToolUse([
      trajectory(0, 0, true, { toolCalls: [crop(false), crop(true)] }),
      trajectory(1, 0, true, { toolCalls: [crop(true)] }),
      trajectory(2, 0, false, { toolCalls: [crop(true)] }),
      trajectory(3, 0, false, { toolCalls: [crop(false), { ok: false }] }),
      trajectory(4, 0, true),
    ]);
    expect(summary).toEqual({
      calls: 6,
      invalidCalls: 1,
      callsPerEpisode: 6 / 5,
      invalidPerEpisode: 1 / 5,
      episodesWithCalls: 4,
      byTool: { search_coordinate: { calls: 5, invalid: 0 }, '(unreadable)': { calls: 1, invalid: 1 } },
      // 3 of 5 episodes hit; 2 of those 3 succeeded, 1 of the 2 others (the one that never looked).
      target: { episodesWithHit: 3, hitRate: 3 / 5, successWithHit: 2 / 3, successWithoutHit: 1 / 2, callsPerSolvedEpisode: 3 / 3 },
    });
    // Episodes that never looked: the answer turn's target_hit says the task had a target.
    const unlooked = trajectory(0, 0, true);
    (unlooked.turns[0]!.info['metrics'] as Record<string, unknown>)['target_hit'] = false;
    expect(summarizeToolUse([unlooked]).target).toEqual({ episodesWithHit: 0, hitRate: 0, successWithHit: null, successWithoutHit: 1, callsPerSolvedEpisode: 0 });
    expect(summarizeToolUse([trajectory(0, 0, true, { toolCalls: [crop(true)] })]).target).toEqual({ episodesWithHit: 1, hitRate: 1, successWithHit: 1, successWithoutHit: null, callsPerSolvedEpisode: 1 });
  });
});
