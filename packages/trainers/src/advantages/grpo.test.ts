import { InvalidArgumentError } from '@saccade/spec';
import { describe, expect, it } from 'vitest';
import { broadcastOverMask, computeGrpoAdvantages, computeMaskedGrpo } from './grpo';
import { expectClose } from './test-helpers';

describe('computeGrpoAdvantages', () => {
  // group a: 1, 3, 5; group b: 2, 2 (all equal); group c: 7 (alone)
  const scores = [1, 3, 5, 2, 2, 7];
  const groupIds = ['a', 'a', 'a', 'b', 'b', 'c'];

  it('normalises within groups with the unbiased std; a group of one has mean 0, std 1', () => {
    // a: mean 3, std = sqrt((4 + 0 + 4)/(3 − 1)) = 2 → (−2, 0, 2)/(2 + 1e−6) = ∓0.99999950000025, 0
    // b: mean 2, std 0 → 0/(0 + 1e−6) = 0
    // c: mean 0, std 1 → 7/(1 + 1e−6) = 6.999993000007
    const adv = computeGrpoAdvantages({ scores, groupIds });
    expectClose(adv, [-0.99999950000025, 0, 0.99999950000025, 0, 0, 6.999993000007], 10);
  });

  it('normalizeStd false: score − group mean', () => {
    expectClose(computeGrpoAdvantages({ scores, groupIds, normalizeStd: false }), [-2, 0, 2, 0, 0, 7]);
  });

  it('epsilon and numeric group ids; trajectories of a group need not be adjacent', () => {
    // group 0: 0, 4 → mean 2, std = sqrt((4 + 4)/1) = 2√2 → ∓2/(2√2) = ∓1/√2 with ε = 0
    const adv = computeGrpoAdvantages({ scores: [0, 10, 4], groupIds: [0, 1, 0], epsilon: 0 });
    expectClose(adv, [-Math.SQRT1_2, 10, Math.SQRT1_2]);
  });

  it('rejects bad input', () => {
    expect(() => computeGrpoAdvantages({ scores: [1, 2], groupIds: ['a'] })).toThrow(InvalidArgumentError);
    expect(() => computeGrpoAdvantages({ scores: [1, Number.NaN], groupIds: ['a', 'a'] })).toThrow(/scores\[1\]/);
    expect(() => computeGrpoAdvantages({ scores: [1], groupIds: [null as never] })).toThrow(/groupIds\[0\]/);
    expect(() => computeGrpoAdvantages({ scores: [1], groupIds: ['a'], epsilon: -1 })).toThrow(/epsilon/);
  });
});

describe('broadcastOverMask / computeMaskedGrpo', () => {
  it('puts the trajectory advantage on generated tokens only', () => {
    expectClose(broadcastOverMask(0.5, [0, 1, 1, 0, 1]), [0, 0.5, 0.5, 0, 0.5]);
    expect(() => broadcastOverMask(0.5, [0, 3])).toThrow(/lossMask\[1\]/);
  });

  it('score = sum of rewards, group-normalised, broadcast over each loss mask', () => {
    // scores: 0 + 1 = 1, 3 (group g), 2 (alone) → g: mean 2, std √2 → ∓1/(√2 + 1e−6); alone: 2/(1 + 1e−6)
    const out = computeMaskedGrpo({
      sequences: [
        { rewards: [0, 0, 1], lossMask: [0, 1, 1] },
        { rewards: [0, 3], lossMask: [1, 1] },
        { rewards: [2], lossMask: [1] },
      ],
      groupIds: ['g', 'g', 'h'],
    });
    const a = 1 / (Math.SQRT2 + 1e-6);
    expectClose(out.scores, [1, 3, 2]);
    expectClose(out.advantages[0] as Float64Array, [0, -a, -a]);
    expectClose(out.advantages[1] as Float64Array, [a, a]);
    expectClose(out.advantages[2] as Float64Array, [2 / (1 + 1e-6)]);
    expectClose(out.trajectoryAdvantages, [-a, a, 2 / (1 + 1e-6)]);
  });
});
