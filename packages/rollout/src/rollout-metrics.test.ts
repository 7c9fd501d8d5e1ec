import { storedTrajectory as played, storedTurn as turn } from '@saccade/core/testing';
import { describe, expect, it } from 'vitest';
import { rolloutMetrics } from './run-rollouts';

describe('rolloutMetrics', () => {
  it('names and values of a batch, as the rollout-end event and metrics.jsonl carry them', () => {
    const metrics = rolloutMetrics(
      [
        played([turn({}, { agentMs: 10, envMs: 2 }), turn({ metrics: { success: true } }, { agentMs: 30, envMs: 4 })], 1),
        played([turn({ metrics: { success: false } }, { agentMs: 5, envMs: 1 })], 0.25),
        played([turn({ metrics: { success: true } }, { agentMs: 7, envMs: 3 })], -0.5, { error: true }),
      ],
      2000,
    );
    expect(metrics).toEqual({
      episodes: 3,
      failed: 1,
      meanReward: 0.75 / 3,
      success: 1 / 3,
      meanTurns: 4 / 3,
      meanAgentMs: 52 / 4,
      meanEnvMs: 10 / 4,
      durationMs: 2000,
      episodesPerSecond: 1.5,
      turnsPerSecond: 2,
    });
    expect(Object.keys(metrics)).toEqual(['episodes', 'failed', 'meanReward', 'success', 'meanTurns', 'meanAgentMs', 'meanEnvMs', 'durationMs', 'episodesPerSecond', 'turnsPerSecond']);
    expect(rolloutMetrics([], 0)).toEqual({
      episodes: 0,
      failed: 0,
      meanReward: 0,
      success: 0,
      meanTurns: 0,
      meanAgentMs: 0,
      meanEnvMs: 0,
      durationMs: 0,
      episodesPerSecond: 0,
      turnsPerSecond: 0,
    });
  });
});
