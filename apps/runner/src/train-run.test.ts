import { describe, expect, test } from 'vitest';
import { trainConfigSchema } from './train-config';
import { cutOfEvent, describeCut, plannedPhases } from './train-run';

describe('plannedPhases', () => {
  const config = trainConfigSchema.parse({});

  test('the default run: SFT then GRPO, budgeted in steps, without time guards', () => {
    // Each with what a step trains on (SFT's batch of 32; GRPO's 16 prompts × 8), for the ETA of the phase ahead.
    expect(plannedPhases(config)).toEqual({ phases: [{ steps: 400, episodesPerStep: 32, plays: false }, { steps: 110, episodesPerStep: 128, plays: true }], firstPhaseStart: 0 });
  });

  test('a guard the config sets goes with its phase', () => {
    const guarded = trainConfigSchema.parse({ sft: { timeLimitSeconds: 600 }, grpo: { steps: 30, timeLimitSeconds: 900 } });
    expect(plannedPhases(guarded).phases).toEqual([
      { steps: 400, timeLimitSeconds: 600, episodesPerStep: 32, plays: false },
      { steps: 30, timeLimitSeconds: 900, episodesPerStep: 128, plays: true },
    ]);
  });

  test('PPO instead of GRPO; a phase of 0 steps left out', () => {
    const ppo = trainConfigSchema.parse({ algorithm: 'ppo', sft: { steps: 0 }, ppo: { timeLimitSeconds: 330 } });
    expect(plannedPhases(ppo)).toEqual({ phases: [{ steps: 100, timeLimitSeconds: 330, episodesPerStep: 64, plays: true }], firstPhaseStart: 0 });
  });

  test('resumed: within SFT both phases remain; within GRPO only GRPO, from where it started', () => {
    expect(plannedPhases(config, { step: 200, phase: 'sft', complete: false, phaseStart: 0 }).phases).toHaveLength(2);
    expect(plannedPhases(config, { step: 390, phase: 'grpo', complete: false, phaseStart: 372 })).toEqual({ phases: [{ steps: 110, episodesPerStep: 128, plays: true }], firstPhaseStart: 372 });
    expect(plannedPhases(config, { step: 482, phase: 'grpo', complete: true, phaseStart: 372 })).toEqual({ phases: [], firstPhaseStart: 0 });
    // From SFT's final checkpoint GRPO is ahead, from the step SFT ended at (a guard may have ended it early).
    expect(plannedPhases(config, { step: 400, phase: 'sft', complete: true, phaseStart: 0 })).toEqual({ phases: [{ steps: 110, episodesPerStep: 128, plays: true }], firstPhaseStart: 400 });
    expect(plannedPhases(config, { step: 372, phase: 'sft', complete: true, phaseStart: 0 }).firstPhaseStart).toBe(372);
  });
});

describe('cuts', () => {
  test("a cut's warning names the phase, its guard and where it stopped (a later phase also in its own steps); its event carries the cut", () => {
    const sft = { phase: 'sft', atStep: 76, ofSteps: 150, limitSeconds: 480, seconds: 480.4 } as const;
    expect(describeCut(sft, 0)).toBe("SFT was cut short by its time limit (sft.timeLimitSeconds: 480 s): it stopped at step 76 of 150; this run's curve is not the one its configured steps give");
    const grpo = { phase: 'grpo', atStep: 511, ofSteps: 600, limitSeconds: 330, seconds: 330.2 } as const;
    expect(describeCut(grpo, 400)).toBe(
      "GRPO was cut short by its time limit (grpo.timeLimitSeconds: 330 s): it stopped at step 511 of 600 (111 of its 200 steps); this run's curve is not the one its configured steps give",
    );
    const time = '2026-11-26T00:00:00.000Z';
    expect(cutOfEvent({ type: 'log', time, level: 'warn', message: describeCut(sft, 0), data: { cut: sft } })).toEqual(sft);
    expect(cutOfEvent({ type: 'log', time, level: 'warn', message: 'the episode store is full' })).toBeUndefined();
    expect(cutOfEvent({ type: 'log', time, level: 'info', message: 'x', data: { cut: sft } })).toBeUndefined();
  });
});
