import { InvalidArgumentError, type StepResult } from '@saccade/spec';
import { describe, expect, it } from 'vitest';
import { CountEnv, latencyAgent } from './__fixtures__/count-env';
import { runRollouts } from './run-rollouts';
import { restoreObservation } from './store-observation';
import { trajectorySteps } from './trajectory-steps';

/** CountEnv that keeps what each step returned. */
class RecordingCountEnv extends CountEnv {
  readonly steps: StepResult[] = [];

  override async step(action: string): Promise<StepResult> {
    const result = await super.step(action);
    this.steps.push(result);
    return result;
  }
}

describe('trajectorySteps', () => {
  it('gives back the step results the env returned, images included', async () => {
    const env = new RecordingCountEnv({ length: 3, withImage: true });
    const { trajectories, images } = await runRollouts({ prompts: [{ envId: env.id, seed: 4 }], agent: latencyAgent(0), createEnv: () => env });
    const steps = trajectorySteps(trajectories[0]!, images);
    expect(steps).toHaveLength(3);
    expect(steps).toEqual(env.steps);
    expect(steps[2]).toMatchObject({ reward: 1, terminated: true, observation: { text: 'Turn 3: <image>' } });
    expect(new TextDecoder().decode(steps[2]!.observation.images[0]!.data)).toBe('image of seed 4');
  });

  it('says which image is missing', () => {
    const stored = { text: '<image>', images: [{ hash: 'abc', mediaType: 'image/png' as const }] };
    expect(() => restoreObservation(stored, new Map())).toThrow(InvalidArgumentError);
    expect(() => restoreObservation(stored, new Map())).toThrow(/the bytes of image abc the observation refers to/);
  });
});
