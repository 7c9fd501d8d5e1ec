import type { Trajectory } from '@saccade/spec';

/**
 * Whether an episode succeeded: its last turn's `info.metrics.success` is `true` or `1`, and it did
 * not stop on an error. What eval accuracy, pass@k and trajectory filters count.
 */
export function trajectorySuccess(trajectory: Trajectory): boolean {
  if (trajectory.error !== undefined) return false;
  const last = trajectory.turns[trajectory.turns.length - 1];
  const metrics = last?.info.metrics;
  if (typeof metrics !== 'object' || metrics === null) return false;
  const success = (metrics as Record<string, unknown>).success;
  return success === true || success === 1;
}
