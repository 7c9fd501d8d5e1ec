import type { Trajectory, Turn } from '@saccade/spec';

/** A stored turn with the given info (and, optionally, timings); the rest blank. For summaries' tests. */
export function storedTurn(info: Record<string, unknown>, timing: { agentMs: number; envMs: number } = { agentMs: 0, envMs: 0 }): Turn {
  return { observation: { text: '', images: [] }, action: 'a', reward: 0, rewardTerms: {}, terminated: false, truncated: false, info, timing };
}

/** A stored episode of `turns` with its total reward, stopped on an error when `error` is true. */
export function storedTrajectory(turns: Turn[], totalReward: number, options: { id?: string; error?: boolean } = {}): Trajectory {
  return {
    id: options.id ?? 'e0-0',
    envId: 'test/Env-v1',
    seed: 0,
    agentId: 'mock',
    turns,
    totalReward,
    terminated: true,
    truncated: false,
    startedAt: '2026-01-01T00:00:00Z',
    ...(options.error ? { error: { name: 'Error', message: 'down' } } : {}),
  };
}
