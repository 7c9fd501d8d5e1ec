import { storedTrajectory as played, storedTurn as turn } from '@saccade/core/testing';
import { describe, expect, it } from 'vitest';
import { evaluationMetrics, summarizeTrajectories } from './evaluate-policy';

describe('summarizeTrajectories', () => {
  it('success, mean reward, format rate and mean turns, and the looking metrics when tools were called', () => {
    const evaluation = summarizeTrajectories([
      played([turn({ toolCallCount: 1, toolCalls: [{ name: 'crop', ok: true, hit: true }] }), turn({ metrics: { success: true, format_correct: true } })], 1),
      played([turn({ toolCallCount: 1, toolCalls: [{ name: 'crop', ok: false }] }), turn({ formatCorrect: false, metrics: { success: false } })], 0.3),
      played([turn({ metrics: { success: 1, format_correct: true } })], 0.2),
    ]);
    expect(evaluation).toEqual({
      episodes: 3,
      success: 2 / 3,
      meanReward: (1 + 0.3 + 0.2) / 3,
      formatRate: 2 / 3,
      meanTurns: 5 / 3,
      looking: { toolCallsPerEpisode: 2 / 3, invalidCallRate: 0.5, targetHitRate: 1 / 3, successWithHit: 1, successWithoutHit: 0.5, callsPerSolvedEpisode: 0.5 },
    });
    expect(evaluationMetrics(evaluation)).toEqual({
      episodes: 3,
      success: 2 / 3,
      meanReward: (1 + 0.3 + 0.2) / 3,
      formatRate: 2 / 3,
      meanTurns: 5 / 3,
      toolCallsPerEpisode: 2 / 3,
      invalidCallRate: 0.5,
      targetHitRate: 1 / 3,
      successWithHit: 1,
      successWithoutHit: 0.5,
      callsPerSolvedEpisode: 0.5,
    });
  });

  it('the share of turns whose prompt the agent cut to fit its context, when the agent recorded its prompts', () => {
    const prompted = (truncatedTokens?: number) => ({ ...turn({ metrics: { success: true } }), prompt: { tokens: [1, 2], images: [], ...(truncatedTokens === undefined ? {} : { truncatedTokens }) } });
    const evaluation = summarizeTrajectories([played([prompted(), prompted(66)], 1), played([prompted(0), prompted(130)], 1)]);
    expect(evaluation.truncatedPrompts).toBe(0.5);
    expect(evaluationMetrics(evaluation)).toMatchObject({ truncatedPrompts: 0.5 });
    expect(summarizeTrajectories([played([prompted(), prompted(0)], 1)]).truncatedPrompts).toBe(0);
  });

  it('no format reported: a format rate of 0, and no looking metrics without tool calls', () => {
    expect(summarizeTrajectories([played([turn({ metrics: { success: false } })], 0)])).toEqual({ episodes: 1, success: 0, meanReward: 0, formatRate: 0, meanTurns: 1 });
    expect(summarizeTrajectories([])).toEqual({ episodes: 0, success: 0, meanReward: 0, formatRate: 0, meanTurns: 0 });
  });
});
