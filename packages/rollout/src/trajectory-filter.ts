import { trajectorySuccess } from '@saccade/core';
import { InvalidArgumentError, type Trajectory } from '@saccade/spec';

// One definition of success for every package: core's (eval statistics use it too).
export { trajectorySuccess };

/** Which trajectories to keep; every field given must match. */
export interface TrajectoryFilter {
  /** Keep only successful (true) or only unsuccessful (false) episodes; see `trajectorySuccess`. */
  success?: boolean;
  /** Keep only episodes that stopped on an error (true) or only those that did not (false). */
  failed?: boolean;
  /** Lowest total reward kept (inclusive). */
  minReward?: number;
  /** Highest total reward kept (inclusive). */
  maxReward?: number;
  /** Keep only these env ids. */
  envId?: string | readonly string[];
  /** Keep only this group (GRPO). */
  groupId?: string;
}

/** Checks a filter once, so that a typo (a string reward bound) fails loudly instead of keeping nothing. */
export function checkTrajectoryFilter(filter: TrajectoryFilter): TrajectoryFilter {
  if (typeof filter !== 'object' || filter === null) {
    throw new InvalidArgumentError({ argument: 'filter', expected: 'an object such as { success: true, minReward: 0 }', value: filter });
  }
  for (const key of ['minReward', 'maxReward'] as const) {
    const value = filter[key];
    if (value !== undefined && (typeof value !== 'number' || Number.isNaN(value))) {
      throw new InvalidArgumentError({ argument: `filter.${key}`, expected: 'a number', value });
    }
  }
  for (const key of ['success', 'failed'] as const) {
    const value = filter[key];
    if (value !== undefined && typeof value !== 'boolean') throw new InvalidArgumentError({ argument: `filter.${key}`, expected: 'a boolean', value });
  }
  const envId = filter.envId;
  if (envId !== undefined && typeof envId !== 'string' && !(Array.isArray(envId) && envId.every((id) => typeof id === 'string'))) {
    throw new InvalidArgumentError({ argument: 'filter.envId', expected: 'an env id or an array of env ids', value: envId });
  }
  return filter;
}

/** Whether a trajectory passes the filter. */
export function matchesTrajectoryFilter(trajectory: Trajectory, filter: TrajectoryFilter): boolean {
  if (filter.failed !== undefined && (trajectory.error !== undefined) !== filter.failed) return false;
  if (filter.success !== undefined && trajectorySuccess(trajectory) !== filter.success) return false;
  if (filter.minReward !== undefined && !(trajectory.totalReward >= filter.minReward)) return false;
  if (filter.maxReward !== undefined && !(trajectory.totalReward <= filter.maxReward)) return false;
  if (filter.groupId !== undefined && trajectory.groupId !== filter.groupId) return false;
  if (filter.envId !== undefined) {
    const ids = typeof filter.envId === 'string' ? [filter.envId] : filter.envId;
    if (!ids.includes(trajectory.envId)) return false;
  }
  return true;
}
