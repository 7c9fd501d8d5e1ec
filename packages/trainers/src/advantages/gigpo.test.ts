import { InvalidArgumentError } from '@saccade/spec';
import { describe, expect, it } from 'vitest';
import { computeGigpoStepAdvantages } from './gigpo';
import { expectClose } from './test-helpers';

describe('computeGigpoStepAdvantages', () => {
  // Group g, three episodes from the same start state s0 (a FrozenLake map played three times):
  //   A: s0 → s1 → s2, reward 1 at the end        R = (0.81, 0.9, 1) with γ 0.9
  //   B: s0 → s1 → s3 → s2, reward 1 at the end   R = (0.729, 0.81, 0.9, 1)
  //   C: s0 → s4, reward 0                        R = (0, 0)
  // Group h: one episode from s0 again (another map: a different episode group), R = (0.9, 1).
  const trajectories = [
    { groupId: 'g', stepRewards: [0, 0, 1], anchors: ['s0', 's1', 's2'] },
    { groupId: 'g', stepRewards: [0, 0, 0, 1], anchors: ['s0', 's1', 's3', 's2'] },
    { groupId: 'g', stepRewards: [0, 0], anchors: ['s0', 's4'] },
    { groupId: 'h', stepRewards: [0, 1], anchors: ['s0', 's5'] },
  ];

  it('discounted returns per turn, grouped by (episode group, anchor state), normalised with the unbiased std', () => {
    const out = computeGigpoStepAdvantages({ trajectories, discount: 0.9, epsilon: 0 });
    expectClose(out.stepReturns[0]!, [0.81, 0.9, 1]);
    expectClose(out.stepReturns[1]!, [0.729, 0.81, 0.9, 1]);
    expectClose(out.stepReturns[2]!, [0, 0]);
    // (g, s0): 0.81, 0.729, 0 → mean 0.513, std = √((0.297² + 0.216² + 0.513²)/2)
    const mean = (0.81 + 0.729 + 0) / 3;
    const std = Math.sqrt(((0.81 - mean) ** 2 + (0.729 - mean) ** 2 + mean ** 2) / 2);
    // (g, s1): 0.9, 0.81 → mean 0.855, std = 0.045·√2 → ±1/√2
    // (g, s2): 1, 1 → equal returns, 0. s3, s4 alone → 0. (h, s0) is another group's → 0.
    expectClose(out.stepAdvantages[0]!, [(0.81 - mean) / std, Math.SQRT1_2, 0]);
    expectClose(out.stepAdvantages[1]!, [(0.729 - mean) / std, -Math.SQRT1_2, 0, 0]);
    expectClose(out.stepAdvantages[2]!, [(0 - mean) / std, 0]);
    expectClose(out.stepAdvantages[3]!, [0, 0]);
    expect(out.stepGroupSizes).toEqual([3, 2, 2, 1, 1, 1, 1]);
    expect(out.variedStepGroups).toBe(2);
  });

  it('normalizeStd false: R_t − the step group mean (verl-agent mean_norm); default γ 0.95', () => {
    const out = computeGigpoStepAdvantages({ trajectories: trajectories.slice(0, 2), normalizeStd: false });
    // (g, s0): 0.9025, 0.857375 → ±0.0225625; (g, s1): 0.95, 0.9025 → ±0.02375
    expectClose(out.stepAdvantages[0]!, [0.0225625, 0.02375, 0]);
    expectClose(out.stepAdvantages[1]!, [-0.0225625, -0.02375, 0, 0]);
  });

  it('rejects what it cannot read, naming the argument', () => {
    expect(() => computeGigpoStepAdvantages({ trajectories: [{ groupId: 'g', stepRewards: [0, 1], anchors: ['s0'] }] })).toThrow(InvalidArgumentError);
    expect(() => computeGigpoStepAdvantages({ trajectories: [{ groupId: 'g', stepRewards: [0, 1], anchors: ['s0'] }] })).toThrow(/trajectories\[0\]\.anchors/);
    expect(() => computeGigpoStepAdvantages({ trajectories: [{ groupId: 'g', stepRewards: [Number.NaN], anchors: ['s0'] }] })).toThrow(/stepRewards\[0\]/);
    expect(() => computeGigpoStepAdvantages({ trajectories: [], discount: 1.5 })).toThrow(/discount/);
  });
});
