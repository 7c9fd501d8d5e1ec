import { describe, expect, test } from 'vitest';
import { storedTrajectory as episode, storedTurn as turn } from '../testing/stored-trajectory';
import { summarizeEpisodes } from './summarize-episodes';

describe('summarizeEpisodes', () => {
  test('success, failures, mean reward and turns, and the format rate over the turns that report one', () => {
    const summary = summarizeEpisodes([
      // A tool turn (no format) and a well-formed, successful answer.
      episode([turn({ toolCalls: [] }), turn({ metrics: { success: true, format_correct: true } })], 1),
      // An older env's top-level formatCorrect, badly formed; success 1 counts.
      episode([turn({ formatCorrect: false, metrics: { success: 1 } })], 0.5),
      // Stopped on an error: a failure even with success in its last turn.
      episode([turn({ metrics: { format_correct: false } }), turn({}), turn({ metrics: { success: true, format_correct: true } })], -0.25, { error: true }),
    ]);
    expect(summary).toEqual({ episodes: 3, successes: 2, success: 2 / 3, failed: 1, meanReward: 1.25 / 3, turns: 6, meanTurns: 2, formatRate: 2 / 4 });
  });

  test('no episodes: zeros, and no format rate', () => {
    expect(summarizeEpisodes([])).toEqual({ episodes: 0, successes: 0, success: 0, failed: 0, meanReward: 0, turns: 0, meanTurns: 0, formatRate: null });
    expect(summarizeEpisodes([episode([turn({})], 2)]).formatRate).toBeNull();
  });
});
