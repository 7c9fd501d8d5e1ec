import { InvalidArgumentError } from '@saccade/spec';
import { describe, expect, it } from 'vitest';
import { computeMaskedGae } from './masked-gae';
import { expectClose } from './test-helpers';
import { computeBiLevelGae, computeBiLevelGaeBatch, computeTurnWiseGae, computeTurnWiseGaeBatch } from './turn-gae';
import { endOfTurnFromLossMask, endOfTurnFromMask } from './turns';
import { maskedWhiten } from './whiten';

// Two turns: [obs, gen, gen(end of turn 0), obs, gen, gen(end of turn 1)]
const lossMask = [0, 1, 1, 0, 1, 1];
const endOfTurn = [2, 5];
const rewards = [0, 0, 1, 0, 0, 2]; // per-turn rewards on the end-of-turn tokens
const values = [0, 0.5, 0.8, 0, 1.0, 1.5];
const sequence = { rewards, values, lossMask, endOfTurn };

describe('computeBiLevelGae', () => {
  it('turn pass with γ_turn, then token pass with γ_token restarting at each end of turn (shared λ)', () => {
    // γ_turn = 0.9, γ_token = 0.95, λ = 0.8
    // Turn level, E = [2, 5]:
    //   t=1: Vn = 0        δ = 2 + 0 − 1.5 = 0.5                    A = 0.5                       r'[5] = 0.5 + 1.5 = 2.0
    //   t=0: Vn = V[5]=1.5 δ = 1 + 0.9·1.5 − 0.8 = 1.55             A = 1.55 + 0.9·0.8·0.5 = 1.91  r'[2] = 1.91 + 0.8 = 2.71
    // Token level, L = [1, 2, 4, 5]:
    //   p=5 ∈ E: A = 0, Vn = 0  δ = 2.0 − 1.5 = 0.5                 A = 0.5      ret = 2.0
    //   p=4:     Vn = V[5]=1.5  δ = 0 + 0.95·1.5 − 1.0 = 0.425      A = 0.425 + 0.95·0.8·0.5 = 0.805    ret = 1.805
    //   p=2 ∈ E: A = 0, Vn = 0  δ = 2.71 − 0.8 = 1.91               A = 1.91     ret = 2.71
    //   p=1:     Vn = V[2]=0.8  δ = 0 + 0.95·0.8 − 0.5 = 0.26       A = 0.26 + 0.76·1.91 = 1.7116      ret = 2.2116
    const { advantages, returns } = computeBiLevelGae({ ...sequence, gammaTurn: 0.9, gammaToken: 0.95, lambda: 0.8 });
    expectClose(advantages, [0, 1.7116, 1.91, 0, 0.805, 0.5]);
    expectClose(returns, [0, 2.2116, 2.71, 0, 1.805, 2.0]);
  });

  it('separate λ_turn / λ_token (paper, Algorithm 2)', () => {
    // λ_turn = 0.5: t=0: A = 1.55 + 0.9·0.5·0.5 = 1.775, r'[2] = 2.575; turn 1 unchanged (A = 0.5)
    // λ_token = 0.8: p=2: A = 2.575 − 0.8 = 1.775; p=1: A = 0.26 + 0.95·0.8·1.775 = 0.26 + 1.349 = 1.609
    const { advantages, returns } = computeBiLevelGae({
      ...sequence,
      gammaTurn: 0.9,
      gammaToken: 0.95,
      lambdaTurn: 0.5,
      lambdaToken: 0.8,
    });
    expectClose(advantages, [0, 1.609, 1.775, 0, 0.805, 0.5]);
    expectClose(returns, [0, 2.109, 2.575, 0, 1.805, 2.0]);
    // lambdaTurn overrides a shared lambda; lambdaToken falls back to it
    const mixed = computeBiLevelGae({ ...sequence, gammaTurn: 0.9, gammaToken: 0.95, lambda: 0.8, lambdaTurn: 0.5 });
    expectClose(mixed.advantages, [0, 1.609, 1.775, 0, 0.805, 0.5]);
  });

  it('rewards inside a turn enter the token pass only', () => {
    // r[4] = 0.1: turn pass unchanged; p=4: δ = 0.1 + 1.425 − 1 = 0.525, A = 0.525 + 0.38 = 0.905
    const { advantages } = computeBiLevelGae({
      ...sequence,
      rewards: [0, 0, 1, 0, 0.1, 2],
      gammaTurn: 0.9,
      gammaToken: 0.95,
      lambda: 0.8,
    });
    expectClose(advantages, [0, 1.7116, 1.91, 0, 0.905, 0.5]);
  });

  it('one turn reduces to masked GAE with γ_token', () => {
    // single turn: A_turn = r[E] − V[E], so r'[E] = r[E] and the token pass is masked GAE
    const single = { rewards: [0, 0, 0, 3], values: [0.2, 0.4, 0.6, 0.8], lossMask: [0, 1, 1, 1] };
    const bi = computeBiLevelGae({ ...single, endOfTurn: [3], gammaTurn: 0.5, gammaToken: 0.9, lambda: 0.7 });
    const base = computeMaskedGae({ ...single, gamma: 0.9, lambda: 0.7 });
    expectClose(bi.advantages, Array.from(base.advantages));
    expectClose(bi.returns, Array.from(base.returns));
  });

  it('γ = λ = 1 everywhere: reward-to-go minus value', () => {
    // turn level: A_1 = 2 − 1.5 = 0.5, r'[5] = 2; A_0 = 1 + 1.5 − 0.8 + 0.5 = 2.2, r'[2] = 3 (= 1 + 2)
    // token level: p=1: δ = 0 + 0.8 − 0.5 = 0.3, A = 0.3 + 2.2 = 2.5 = 3 − 0.5; p=4: 0 + 1.5 − 1 + 0.5 = 1 = 2 − 1
    const { advantages, returns } = computeBiLevelGae({ ...sequence, gammaTurn: 1, gammaToken: 1, lambda: 1 });
    expectClose(advantages, [0, 2.5, 2.2, 0, 1, 0.5]);
    expectClose(returns, [0, 3, 3, 0, 2, 2]);
  });

  it('accepts a 0/1 end-of-turn mask', () => {
    const a = computeBiLevelGae({ ...sequence, gammaTurn: 0.9, gammaToken: 0.95, lambda: 0.8 });
    const { endOfTurn: _unused, ...rest } = sequence;
    const b = computeBiLevelGae({ ...rest, endOfTurnMask: [0, 0, 1, 0, 0, 1], gammaTurn: 0.9, gammaToken: 0.95, lambda: 0.8 });
    expectClose(b.advantages, Array.from(a.advantages));
  });

  it('whiten over masked tokens; batch whitens over the whole batch', () => {
    // masked adv 1.7116, 1.91, 0.805, 0.5: mean = 4.9266/4 = 1.23165
    // deviations 0.47995, 0.67835, −0.42665, −0.73165; Σ² = 1.40785267; var = 0.46928422; sqrt ≈ 0.6850432
    // whitened ≈ 0.7006127, 0.9902295, −0.6228074, −1.0680348
    const expected = [0, 0.7006127142, 0.9902294712, 0, -0.622807406, -1.0680347794];
    const one = computeBiLevelGae({ ...sequence, gammaTurn: 0.9, gammaToken: 0.95, lambda: 0.8, whiten: true });
    expectClose(one.advantages, expected);
    expectClose(one.returns, [0, 2.2116, 2.71, 0, 1.805, 2.0]);
    const batch = computeBiLevelGaeBatch({ sequences: [sequence], gammaTurn: 0.9, gammaToken: 0.95, lambda: 0.8 });
    expectClose(batch.advantages[0] as Float64Array, expected);
    const raw = computeBiLevelGaeBatch({ sequences: [sequence, sequence], gammaTurn: 0.9, gammaToken: 0.95, lambda: 0.8, whiten: false });
    expectClose(raw.advantages[1] as Float64Array, [0, 1.7116, 1.91, 0, 0.805, 0.5]);
  });

  it('rejects bad end-of-turn positions and parameters', () => {
    const p = { gammaTurn: 0.9, gammaToken: 0.95, lambda: 0.8 };
    expect(() => computeBiLevelGae({ ...sequence, ...p, endOfTurn: [5, 2] })).toThrow(/strictly increasing/);
    expect(() => computeBiLevelGae({ ...sequence, ...p, endOfTurn: [2, 2, 5] })).toThrow(InvalidArgumentError);
    expect(() => computeBiLevelGae({ ...sequence, ...p, endOfTurn: [3, 5] })).toThrow(/lossMask 1/); // observation token
    expect(() => computeBiLevelGae({ ...sequence, ...p, endOfTurn: [2, 6] })).toThrow(/endOfTurn\[1\]/); // out of range
    expect(() => computeBiLevelGae({ ...sequence, ...p, endOfTurn: [2.5, 5] })).toThrow(/integer/);
    expect(() => computeBiLevelGae({ ...sequence, ...p, endOfTurn: [2, 4] })).toThrow(/last masked token/); // token 5 in no turn
    expect(() => computeBiLevelGae({ ...sequence, ...p, endOfTurn: undefined })).toThrow(/endOfTurn/);
    expect(() => computeBiLevelGae({ ...sequence, ...p, endOfTurnMask: [0, 0, 1, 0, 0, 1] })).toThrow(/not both/);
    expect(() => computeBiLevelGae({ ...sequence, ...p, endOfTurn: undefined, endOfTurnMask: [0, 0, 1, 0, 1] })).toThrow(/endOfTurnMask/);
    expect(() => computeBiLevelGae({ ...sequence, gammaTurn: 0.9, gammaToken: 0.95 })).toThrow(/lambda/);
    expect(() => computeBiLevelGae({ ...sequence, gammaTurn: 0.9, gammaToken: 0.95, lambdaTurn: 0.5 })).toThrow(/lambdaToken/);
    expect(() => computeBiLevelGae({ ...sequence, ...p, gammaTurn: 2 })).toThrow(/gammaTurn/);
    expect(() => computeBiLevelGae({ ...sequence, ...p, rewards: [1, 0, 1, 0, 0, 2] })).toThrow(/rewards\[0\]/);
    expect(() => computeBiLevelGaeBatch({ sequences: [sequence, { ...sequence, endOfTurn: [1] }], ...p })).toThrow(/sequences\[1\]\.endOfTurn/);
  });

  it('an all-zero mask needs no end of turn and gives zeros', () => {
    const { advantages } = computeBiLevelGae({ rewards: [0, 0], values: [1, 1], lossMask: [0, 0], endOfTurn: [], gammaTurn: 0.9, gammaToken: 1, lambda: 1 });
    expectClose(advantages, [0, 0]);
  });
});

describe('computeTurnWiseGae', () => {
  it('every token of turn t gets A_t; returns and valueMask only at the ends of turns', () => {
    // γ_turn = 0.9, λ = 0.8: turn advantages as in bi-level: A_0 = 1.91, A_1 = 0.5
    // ret[E] = A + V[E]: 1.91 + 0.8 = 2.71, 0.5 + 1.5 = 2.0
    const { advantages, returns, valueMask } = computeTurnWiseGae({ ...sequence, gammaTurn: 0.9, lambda: 0.8 });
    expectClose(advantages, [0, 1.91, 1.91, 0, 0.5, 0.5]);
    expectClose(returns, [0, 0, 2.71, 0, 0, 2.0]);
    expect(Array.from(valueMask)).toEqual([0, 0, 1, 0, 0, 1]);
  });

  it('whitens over the ends of turns by default (VAGEN), or over every masked token', () => {
    // over E: values 1.91, 0.5 → mean 1.205, deviations ±0.705, var = 2·0.497025/1 = 0.99405
    //   → ±0.705/sqrt(0.99405 + 1e−8) = ±0.70710678 (two values always whiten to ±1/√2)
    const s = Math.SQRT1_2;
    const overEnds = computeTurnWiseGae({ ...sequence, gammaTurn: 0.9, lambda: 0.8, whiten: true });
    expectClose(overEnds.advantages, [0, s, s, 0, -s, -s], 7);
    // over lossMask: 1.91, 1.91, 0.5, 0.5 → mean 1.205, var = 4·0.497025/3 = 0.6627 → ±0.705/0.8140639 = ±0.8660254 (√3/2)
    const h = Math.sqrt(3) / 2;
    const overTokens = computeTurnWiseGae({ ...sequence, gammaTurn: 0.9, lambda: 0.8, whiten: true, whitenOver: 'lossMask' });
    expectClose(overTokens.advantages, [0, h, h, 0, -h, -h], 7);
    expectClose(overTokens.returns, [0, 0, 2.71, 0, 0, 2.0]);
  });

  it('batch: turn advantages whitened over the ends of turns of the whole batch', () => {
    const second = { rewards: [3], values: [1], lossMask: [1], endOfTurn: [0] }; // A = 3 − 1 = 2
    const out = computeTurnWiseGaeBatch({ sequences: [sequence, second], gammaTurn: 0.9, lambda: 0.8 });
    const w = maskedWhiten([1.91, 0.5, 2], [1, 1, 1]);
    expectClose(out.advantages[0] as Float64Array, [0, w[0] as number, w[0] as number, 0, w[1] as number, w[1] as number]);
    expectClose(out.advantages[1] as Float64Array, [w[2] as number]);
    expect(Array.from(out.valueMask[1] as Float64Array)).toEqual([1]);
    expectClose(out.returns[1] as Float64Array, [3]);
  });

  it("adds a turn's per-token rewards (a KL penalty applied as a reward) into the turn's reward", () => {
    // KL penalties −0.1 and −0.05 on turn 0's tokens, −0.2 on turn 1's first token:
    //   R_0 = −0.1 + (1 − 0.05) = 0.85,  R_1 = −0.2 + 2 = 1.8
    //   t=1: δ = 1.8 + 0 − 1.5 = 0.3                      A_1 = 0.3
    //   t=0: δ = 0.85 + 0.9·1.5 − 0.8 = 1.4               A_0 = 1.4 + 0.9·0.8·0.3 = 1.616
    const withKl = { ...sequence, rewards: [0, -0.1, 1 - 0.05, 0, -0.2, 2] };
    const { advantages, returns, valueMask } = computeTurnWiseGae({ ...withKl, gammaTurn: 0.9, lambda: 0.8 });
    expectClose(advantages, [0, 1.616, 1.616, 0, 0.3, 0.3]);
    expectClose(returns, [0, 0, 2.416, 0, 0, 1.8]);
    expect(Array.from(valueMask)).toEqual([0, 0, 1, 0, 0, 1]);
    // The same rewards all on the ends of turns give the same result.
    expectClose(computeTurnWiseGae({ ...sequence, rewards: [0, 0, 0.85, 0, 0, 1.8], gammaTurn: 0.9, lambda: 0.8 }).advantages, [0, 1.616, 1.616, 0, 0.3, 0.3]);
    const batch = computeTurnWiseGaeBatch({ sequences: [withKl], gammaTurn: 0.9, lambda: 0.8, whiten: false });
    expectClose(batch.advantages[0] as Float64Array, [0, 1.616, 1.616, 0, 0.3, 0.3]);
  });

  it('refuses rewards on unmasked (observation) tokens, and bad parameters', () => {
    expect(() => computeTurnWiseGae({ ...sequence, rewards: [0, 0, 1, 0.5, 0, 2], gammaTurn: 0.9, lambda: 0.8 })).toThrow(
      'rewards[3]: expected 0 (a reward must sit on a token with lossMask 1 (a response token of a turn)), received 0.5',
    );
    expect(() => computeTurnWiseGae({ ...sequence, gammaTurn: 0.9, lambda: 0.8, whitenOver: 'tokens' as never })).toThrow(/whitenOver/);
  });
});

describe('end-of-turn helpers', () => {
  it('reads positions off a mask, or off the runs of a loss mask', () => {
    expect(endOfTurnFromMask([0, 0, 1, 0, 0, 1])).toEqual([2, 5]);
    expect(endOfTurnFromLossMask([0, 1, 1, 0, 1, 1])).toEqual([2, 5]);
    expect(endOfTurnFromLossMask([1, 0, 0, 1, 0])).toEqual([0, 3]);
    expect(endOfTurnFromLossMask([0, 0])).toEqual([]);
    expect(() => endOfTurnFromMask([0, 2])).toThrow(InvalidArgumentError);
  });
});
