import { describe, expect, test } from 'vitest';
import { phasesFromConfig, remainingSeconds } from './phase-eta';

const defaultRun = [
  { steps: 400, timeLimitSeconds: 540 },
  { steps: 200, timeLimitSeconds: 330 },
];

describe('remainingSeconds', () => {
  test('the current phase at its rate, then the later phases by their time limits', () => {
    // SFT at 0.55 s a step, 300 steps left (165 s, inside its 480 s), then GRPO's 330 s (its 200 steps at SFT's rate would take longer).
    expect(remainingSeconds(defaultRun, { index: 0, startStep: 0, step: 100, seconds: 60, secondsPerStep: 0.55 })).toBeCloseTo(495, 9);
  });

  test('a phase that will hit its time limit first ends there', () => {
    // GRPO at 2.5 s a step would need 375 s for its 150 steps left; its limit leaves 230.
    expect(remainingSeconds(defaultRun, { index: 1, startStep: 400, step: 450, seconds: 100, secondsPerStep: 2.5 })).toBe(230);
    // It started after an SFT that stopped early at step 350: its steps count from there.
    expect(remainingSeconds([{ steps: 200 }], { index: 0, startStep: 350, step: 500, seconds: 100, secondsPerStep: 2 })).toBe(100);
  });

  test("a later phase's steps cost what their episodes do: more of them, and played, until the phase has its own rate", () => {
    // The visual-search recipe: SFT 120 steps of 32 examples at 5 s, then GRPO 20 steps of 8 × 8 played episodes.
    const recipe = phasesFromConfig({ sft: { steps: 120, batchSize: 32 }, grpo: { steps: 20, promptsPerStep: 8, groupSize: 8 } })!;
    expect(recipe).toEqual([
      { steps: 120, episodesPerStep: 32, plays: false },
      { steps: 20, episodesPerStep: 64, plays: true },
    ]);
    // 80 SFT steps left at 5 s, then 20 GRPO steps at 5 × 2 × 2.5 = 25 s (measured: 26 s under the same load).
    expect(remainingSeconds(recipe, { index: 0, startStep: 0, step: 40, seconds: 200, secondsPerStep: 5 })).toBe(400 + 500);
    // A time guard still bounds it; PPO counts its episodes per step.
    expect(remainingSeconds([recipe[0]!, { ...recipe[1]!, timeLimitSeconds: 300 }], { index: 0, startStep: 0, step: 40, seconds: 200, secondsPerStep: 5 })).toBe(700);
    expect(phasesFromConfig({ algorithm: 'ppo', sft: { steps: 10, batchSize: 16 }, ppo: { steps: 5, episodesPerStep: 64 } })).toEqual([
      { steps: 10, episodesPerStep: 16, plays: false },
      { steps: 5, episodesPerStep: 64, plays: true },
    ]);
  });

  test('a later phase without a time limit takes its steps at the current rate; no rate, no ETA', () => {
    expect(remainingSeconds([{ steps: 10 }, { steps: 20 }], { index: 0, startStep: 0, step: 5, seconds: 10, secondsPerStep: 2 })).toBe(50);
    expect(remainingSeconds(defaultRun, { index: 0, startStep: 0, step: 1, seconds: 3, secondsPerStep: undefined })).toBeUndefined();
    expect(remainingSeconds(defaultRun, { index: 2, startStep: 0, step: 1, seconds: 3, secondsPerStep: 1 })).toBeUndefined();
  });
});

describe('phasesFromConfig', () => {
  test("SFT and the config's algorithm, phases without steps left out", () => {
    const config = { algorithm: 'ppo', sft: { steps: 400, timeLimitSeconds: 540 }, grpo: { steps: 200, timeLimitSeconds: 330 }, ppo: { steps: 100, timeLimitSeconds: 300 } };
    expect(phasesFromConfig(config)).toEqual([
      { steps: 400, timeLimitSeconds: 540 },
      { steps: 100, timeLimitSeconds: 300 },
    ]);
    expect(phasesFromConfig({ sft: { steps: 0 }, grpo: { steps: 50 } })).toEqual([{ steps: 50 }]);
    expect(phasesFromConfig('not a config')).toBeUndefined();
    expect(phasesFromConfig({ env: 'x' })).toBeUndefined();
  });
});
