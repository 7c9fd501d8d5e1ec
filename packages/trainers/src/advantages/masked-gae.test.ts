import { InvalidArgumentError } from '@saccade/spec';
import { describe, expect, it } from 'vitest';
import { computeMaskedGae, computeMaskedGaeBatch } from './masked-gae';
import { expectClose } from './test-helpers';
import { maskedWhiten } from './whiten';

// Tokens: [obs, obs, gen, gen, obs, gen]
const lossMask = [0, 0, 1, 1, 0, 1];
const rewards = [0, 0, 0, 1, 0, 2];
const values = [0.5, 0.5, 1.0, 2.0, 3.0, 1.5];
const gamma = 0.9;
const lambda = 0.8; // γλ = 0.72

describe('computeMaskedGae', () => {
  it('skips observation tokens: the next value comes from the next generated token', () => {
    // L = [2, 3, 5]
    // p=5: Vn = 0          δ = 2 + 0 − 1.5 = 0.5                    A = 0.5               ret = 0.5 + 1.5 = 2.0
    // p=3: Vn = V[5] = 1.5 δ = 1 + 0.9·1.5 − 2.0 = 0.35            A = 0.35 + 0.72·0.5 = 0.71        ret = 2.71
    // p=2: Vn = V[3] = 2.0 δ = 0 + 0.9·2.0 − 1.0 = 0.8             A = 0.8 + 0.72·0.71 = 1.3112      ret = 2.3112
    const { advantages, returns } = computeMaskedGae({ rewards, values, lossMask, gamma, lambda });
    expectClose(advantages, [0, 0, 1.3112, 0.71, 0, 0.5]);
    expectClose(returns, [0, 0, 2.3112, 2.71, 0, 2.0]);
  });

  it('differs from plain GAE over every token (all-ones mask)', () => {
    // Plain GAE, Vn = V[t+1]:
    // t=5: δ = 2 − 1.5 = 0.5                         A = 0.5
    // t=4: δ = 0 + 0.9·1.5 − 3.0 = −1.65             A = −1.65 + 0.72·0.5 = −1.29
    // t=3: δ = 1 + 0.9·3.0 − 2.0 = 1.7               A = 1.7 + 0.72·(−1.29) = 0.7712     (masked: 0.71)
    // t=2: δ = 0 + 0.9·2.0 − 1.0 = 0.8               A = 0.8 + 0.72·0.7712 = 1.355264   (masked: 1.3112)
    // t=1: δ = 0 + 0.9·1.0 − 0.5 = 0.4               A = 0.4 + 0.72·1.355264 = 1.37579008
    // t=0: δ = 0 + 0.9·0.5 − 0.5 = −0.05             A = −0.05 + 0.72·1.37579008 = 0.9405688576
    const plain = computeMaskedGae({ rewards, values, lossMask: [1, 1, 1, 1, 1, 1], gamma, lambda });
    expectClose(plain.advantages, [0.9405688576, 1.37579008, 1.355264, 0.7712, -1.29, 0.5]);
    const masked = computeMaskedGae({ rewards, values, lossMask, gamma, lambda });
    expect(masked.advantages[2]).not.toBeCloseTo(plain.advantages[2] as number, 3);
    expect(masked.advantages[3]).not.toBeCloseTo(plain.advantages[3] as number, 3);
  });

  it('γ = λ = 1 gives reward-to-go minus value (over masked tokens)', () => {
    // L = [0, 1, 3]; rewards-to-go: 1+0+2 = 3, 0+2 = 2, 2; V = 0.5, 1, 0.25 (V[2] = 9 is skipped)
    // adv = 3 − 0.5 = 2.5, 2 − 1 = 1, 2 − 0.25 = 1.75; ret = reward-to-go
    const { advantages, returns } = computeMaskedGae({
      rewards: [1, 0, 0, 2],
      values: [0.5, 1, 9, 0.25],
      lossMask: [1, 1, 0, 1],
      gamma: 1,
      lambda: 1,
    });
    expectClose(advantages, [2.5, 1, 0, 1.75]);
    expectClose(returns, [3, 2, 0, 2]);
  });

  it('λ = 0 gives the one-step TD error', () => {
    // p=3: δ = 1 + 0.9·1.5 − 2 = 0.35; p=2: δ = 0.8; p=5: 0.5
    const { advantages } = computeMaskedGae({ rewards, values, lossMask, gamma, lambda: 0 });
    expectClose(advantages, [0, 0, 0.8, 0.35, 0, 0.5]);
  });

  it('whiten: advantages over the masked tokens; returns untouched', () => {
    // masked adv 1.3112, 0.71, 0.5: mean = 2.5212/3 = 0.8404
    // deviations 0.4708, −0.1304, −0.3404; squares 0.22165264 + 0.01700416 + 0.11587216 = 0.35452896
    // var_unbiased = 0.35452896/2 = 0.17726448; sqrt ≈ 0.4210279
    // whitened ≈ 0.4708/0.4210279 = 1.1182157, −0.3097182, −0.8084975
    const { advantages, returns } = computeMaskedGae({ rewards, values, lossMask, gamma, lambda, whiten: true });
    expectClose(advantages, [0, 0, 1.1182156893, -0.3097181943, 0, -0.808497495]);
    expectClose(returns, [0, 0, 2.3112, 2.71, 0, 2.0]);
  });

  it('an all-zero mask gives zeros', () => {
    const { advantages, returns } = computeMaskedGae({ rewards: [0, 0], values: [1, 2], lossMask: [0, 0], gamma, lambda, whiten: true });
    expectClose(advantages, [0, 0]);
    expectClose(returns, [0, 0]);
  });

  it('batch: per-sequence GAE, whitened over the masked tokens of the whole batch', () => {
    const other = { rewards: [0, 3], values: [1, 1], lossMask: [1, 1] };
    // other: p=1: δ = 3 − 1 = 2, A = 2; p=0: δ = 0 + 0.9·1 − 1 = −0.1, A = −0.1 + 0.72·2 = 1.34
    const raw = computeMaskedGaeBatch({ sequences: [{ rewards, values, lossMask }, other], gamma, lambda, whiten: false });
    expectClose(raw.advantages[1] as Float64Array, [1.34, 2]);
    expectClose(raw.returns[1] as Float64Array, [2.34, 3]);
    const whitened = computeMaskedGaeBatch({ sequences: [{ rewards, values, lossMask }, other], gamma, lambda });
    // Joint statistics over the 5 masked values 1.3112, 0.71, 0.5, 1.34, 2 (same as whitening the concatenation)
    const joint = maskedWhiten([1.3112, 0.71, 0.5, 1.34, 2], [1, 1, 1, 1, 1]);
    expectClose(whitened.advantages[0] as Float64Array, [0, 0, joint[0] as number, joint[1] as number, 0, joint[2] as number]);
    expectClose(whitened.advantages[1] as Float64Array, [joint[3] as number, joint[4] as number]);
    expectClose(whitened.returns[0] as Float64Array, [0, 0, 2.3112, 2.71, 0, 2.0]);
  });

  it('rejects bad input with InvalidArgumentError', () => {
    const base = { rewards, values, lossMask, gamma, lambda };
    expect(() => computeMaskedGae({ ...base, values: [1, 2] })).toThrow(InvalidArgumentError);
    expect(() => computeMaskedGae({ ...base, lossMask: [0, 0, 1, 1, 0, 2] })).toThrow(/lossMask\[5\]/);
    expect(() => computeMaskedGae({ ...base, gamma: 1.5 })).toThrow(/gamma/);
    expect(() => computeMaskedGae({ ...base, lambda: -0.1 })).toThrow(/lambda/);
    expect(() => computeMaskedGae({ ...base, rewards: [0, 0, 0, 1, 0, Number.POSITIVE_INFINITY] })).toThrow(/rewards\[5\]/);
    // a reward on an observation token would never be read
    expect(() => computeMaskedGae({ ...base, rewards: [0, 0, 0, 1, 5, 2] })).toThrow(/rewards\[4\]/);
    try {
      computeMaskedGae({ ...base, lossMask: [0, 1] });
      expect.unreachable();
    } catch (error) {
      expect(InvalidArgumentError.isInstance(error)).toBe(true);
      expect((error as InvalidArgumentError).argument).toBe('lossMask');
    }
  });
});
