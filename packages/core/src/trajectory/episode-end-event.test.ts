import { describe, expect, test } from 'vitest';
import { storedTrajectory, storedTurn } from '../testing';
import { episodeEndEvent } from './episode-end-event';

describe('episodeEndEvent', () => {
  test("a finished episode's event: totals, ends, success from the last turn, its end time and step", () => {
    const trajectory = { ...storedTrajectory([storedTurn({}), storedTurn({ metrics: { success: true } })], 1.5, { id: 's3-0-1' }), endedAt: '2026-01-01T00:00:05Z' };
    expect(JSON.stringify(episodeEndEvent(trajectory, 3))).toBe(
      '{"type":"episode-end","time":"2026-01-01T00:00:05Z","episodeId":"s3-0-1","totalReward":1.5,"turns":2,"terminated":true,"truncated":false,"success":true,"step":3}',
    );
  });

  test('an episode that stopped on an error is no success and carries the error; no step when none is given', () => {
    const event = episodeEndEvent(storedTrajectory([storedTurn({ metrics: { success: true } })], 0, { error: true }));
    expect(event).toMatchObject({ success: false, error: { name: 'Error', message: 'down' } });
    expect('step' in event).toBe(false);
    expect(Number.isNaN(Date.parse(event.time))).toBe(false);
  });
});
