import { describe, expect, test } from 'vitest';
import { trainConfigSchema } from './train-config';
import { plannedPhases } from './train-run';

describe('plannedPhases', () => {
  const config = trainConfigSchema.parse({});

  test('the default run: SFT then GRPO, with their steps and time limits', () => {
    expect(plannedPhases(config)).toEqual({
      phases: [
        { steps: 400, timeLimitSeconds: 540 },
        { steps: 200, timeLimitSeconds: 330 },
      ],
      firstPhaseStart: 0,
    });
  });

  test('PPO instead of GRPO; a phase of 0 steps left out', () => {
    const ppo = trainConfigSchema.parse({ algorithm: 'ppo', sft: { steps: 0 } });
    expect(plannedPhases(ppo)).toEqual({ phases: [{ steps: 100, timeLimitSeconds: 330 }], firstPhaseStart: 0 });
  });

  test('resumed: within SFT both phases remain; within GRPO only GRPO, from where it started', () => {
    expect(plannedPhases(config, { phase: 'sft', complete: false, phaseStart: 0 }).phases).toHaveLength(2);
    expect(plannedPhases(config, { phase: 'grpo', complete: false, phaseStart: 372 })).toEqual({ phases: [{ steps: 200, timeLimitSeconds: 330 }], firstPhaseStart: 372 });
    expect(plannedPhases(config, { phase: 'grpo', complete: true, phaseStart: 372 })).toEqual({ phases: [], firstPhaseStart: 0 });
  });
});
