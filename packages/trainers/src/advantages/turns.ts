import {
  checkMask,
  checkSameLength,
  fail,
  isArrayLikeOfNumbers,
  type NumericArray,
  type TokenSequence,
} from './validate';

/** A token sequence with its end-of-turn positions E (the last generated token of each turn). */
export interface TurnSequence extends TokenSequence {
  /** E as positions, strictly increasing, each on a token with lossMask 1. Give this or endOfTurnMask. */
  endOfTurn?: readonly number[];
  /** E as a 0/1 mask as long as the sequence (VAGEN's `reward_mask` / `end_of_turn`). Give this or endOfTurn. */
  endOfTurnMask?: NumericArray;
}

/** The positions where a 0/1 end-of-turn mask is 1, in increasing order. */
export function endOfTurnFromMask(mask: NumericArray): number[] {
  checkMask(mask, 'mask');
  const positions: number[] = [];
  for (let i = 0; i < mask.length; i++) if (mask[i] === 1) positions.push(i);
  return positions;
}

/**
 * End-of-turn positions read off a loss mask: the last token of each maximal run of 1s. Right when
 * each turn's generated tokens are contiguous and consecutive turns are separated by at least one
 * masked-out token (an observation), as in VAGEN's rollouts.
 */
export function endOfTurnFromLossMask(lossMask: NumericArray): number[] {
  checkMask(lossMask, 'lossMask');
  const positions: number[] = [];
  for (let i = 0; i < lossMask.length; i++) {
    if (lossMask[i] === 1 && lossMask[i + 1] !== 1) positions.push(i);
  }
  return positions;
}

/**
 * Resolves and checks E: exactly one of endOfTurn / endOfTurnMask; integer positions inside the
 * sequence, strictly increasing, each on a masked token; and the last masked token must end a turn
 * (otherwise the tokens after the last E would belong to no turn).
 */
export function resolveEndOfTurn(sequence: TurnSequence, masked: readonly number[], prefix = ''): number[] {
  const { endOfTurn, endOfTurnMask, lossMask } = sequence;
  const length = lossMask.length;
  let positions: number[];
  if (endOfTurn !== undefined && endOfTurnMask !== undefined) {
    fail(`${prefix}endOfTurn`, 'either endOfTurn (positions) or endOfTurnMask (a 0/1 mask), not both', 'both');
  } else if (endOfTurnMask !== undefined) {
    checkMask(endOfTurnMask, `${prefix}endOfTurnMask`);
    checkSameLength(length, endOfTurnMask, `${prefix}endOfTurnMask`, `${prefix}rewards`);
    positions = [];
    for (let i = 0; i < length; i++) if (endOfTurnMask[i] === 1) positions.push(i);
  } else if (endOfTurn !== undefined) {
    if (!isArrayLikeOfNumbers(endOfTurn)) {
      fail(`${prefix}endOfTurn`, 'an array of end-of-turn positions (use endOfTurnMask for a 0/1 mask)', endOfTurn);
    }
    positions = Array.from(endOfTurn);
    positions.forEach((p, t) => {
      if (!Number.isInteger(p) || p < 0 || p >= length) {
        fail(`${prefix}endOfTurn[${t}]`, `an integer position in [0, ${length - 1}]`, p);
      }
      const previous = positions[t - 1];
      if (previous !== undefined && p <= previous) {
        fail(`${prefix}endOfTurn[${t}]`, `a position after endOfTurn[${t - 1}] = ${previous} (strictly increasing; use endOfTurnMask for a 0/1 mask)`, p);
      }
    });
  } else {
    fail(`${prefix}endOfTurn`, 'end-of-turn positions (endOfTurn) or a 0/1 mask (endOfTurnMask)', undefined);
  }
  const argument = endOfTurnMask !== undefined ? `${prefix}endOfTurnMask` : `${prefix}endOfTurn`;
  positions.forEach((p, t) => {
    if (lossMask[p] !== 1) fail(`${argument}[${endOfTurnMask !== undefined ? p : t}]`, 'an end of turn on a token with lossMask 1', p);
  });
  const lastMasked = masked[masked.length - 1];
  const lastEnd = positions[positions.length - 1];
  if (lastMasked !== lastEnd) {
    fail(
      argument,
      lastMasked === undefined
        ? 'no end of turn (lossMask has no 1)'
        : `an end of turn at the last masked token (${lastMasked}): every generated token must belong to a turn`,
      lastEnd === undefined ? 'no end of turn' : `last end of turn at ${lastEnd}`,
    );
  }
  return positions;
}
