import type { EpisodeEndEvent, Trajectory } from '@saccade/spec';
import { trajectorySuccess } from './trajectory-success';

/**
 * The `episode-end` event of a finished trajectory: its total reward, turns, ends, success and
 * error, stamped with its end time (now when it has none) and the training step when given.
 */
export function episodeEndEvent(trajectory: Trajectory, step?: number): EpisodeEndEvent {
  return {
    type: 'episode-end',
    time: trajectory.endedAt ?? new Date().toISOString(),
    episodeId: trajectory.id,
    totalReward: trajectory.totalReward,
    turns: trajectory.turns.length,
    terminated: trajectory.terminated,
    truncated: trajectory.truncated,
    success: trajectorySuccess(trajectory),
    ...(trajectory.error ? { error: trajectory.error } : {}),
    ...(step === undefined ? {} : { step }),
  };
}
