import { InvalidArgumentError, type ImageData, type StepResult, type Trajectory } from '@saccade/spec';
import { restoreObservation } from './store-observation';

/**
 * A trajectory's turns as the step results the env returned: turn i's reward, flags and info with
 * the observation that followed it (the next turn's, or the final one), images restored from
 * `images`. For code that reads episodes as steps (tests, data generation).
 */
export function trajectorySteps(trajectory: Trajectory, images: ReadonlyMap<string, ImageData>): StepResult[] {
  return trajectory.turns.map((turn, index) => {
    const next = trajectory.turns[index + 1]?.observation ?? trajectory.finalObservation;
    if (next === undefined) {
      throw new InvalidArgumentError({ argument: `trajectory ${trajectory.id}`, expected: 'a finalObservation after its last turn', value: trajectory.error ?? 'none' });
    }
    return { observation: restoreObservation(next, images), reward: turn.reward, terminated: turn.terminated, truncated: turn.truncated, info: turn.info };
  });
}
