// Boundary checks shared by the advantage estimators. Internal: not re-exported from index.ts.
import { InvalidArgumentError } from '@saccade/spec';

/** A sequence of numbers: a plain array or any typed array. */
export type NumericArray = ArrayLike<number>;

export function fail(argument: string, expected: string, value: unknown): never {
  throw new InvalidArgumentError({ argument, expected, value });
}

export function isArrayLikeOfNumbers(value: unknown): value is NumericArray {
  if (Array.isArray(value)) return true;
  return ArrayBuffer.isView(value) && !(value instanceof DataView);
}

/** Checks that `value` is an array of finite numbers; returns its length. */
export function checkFiniteArray(value: unknown, argument: string): NumericArray {
  if (!isArrayLikeOfNumbers(value)) fail(argument, 'an array of numbers (number[] or a typed array)', value);
  for (let i = 0; i < value.length; i++) {
    const x = value[i];
    if (typeof x !== 'number' || !Number.isFinite(x)) fail(`${argument}[${i}]`, 'a finite number', x);
  }
  return value;
}

/** Checks a 0/1 mask. */
export function checkMask(value: unknown, argument: string): NumericArray {
  if (!isArrayLikeOfNumbers(value)) fail(argument, 'an array of 0/1 (number[] or a typed array)', value);
  for (let i = 0; i < value.length; i++) {
    const x = value[i];
    if (x !== 0 && x !== 1) fail(`${argument}[${i}]`, '0 or 1', x);
  }
  return value;
}

export function checkSameLength(length: number, value: NumericArray, argument: string, reference: string): void {
  if (value.length !== length) {
    fail(argument, `an array as long as ${reference} (${length})`, `an array of length ${value.length}`);
  }
}

/** Checks a discount or GAE coefficient: a finite number in [0, 1]. */
export function checkUnitInterval(value: unknown, argument: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
    fail(argument, 'a number in [0, 1]', value);
  }
  return value;
}

export function checkPositive(value: unknown, argument: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) fail(argument, 'a positive finite number', value);
  return value;
}

/** Positions where `mask` is 1, in increasing order. */
export function maskedPositions(mask: NumericArray): number[] {
  const positions: number[] = [];
  for (let i = 0; i < mask.length; i++) if (mask[i] === 1) positions.push(i);
  return positions;
}

/**
 * Rewards on positions the estimator never reads would be dropped silently; refuse them instead.
 * `keep(i)` says whether position i is read.
 */
export function checkRewardsRead(rewards: NumericArray, keep: (i: number) => boolean, argument: string, where: string): void {
  for (let i = 0; i < rewards.length; i++) {
    const r = rewards[i] ?? 0;
    if (r !== 0 && !keep(i)) fail(`${argument}[${i}]`, `0 (a reward must sit on ${where})`, r);
  }
}

/** Element i of an array whose bounds were already checked. */
export function at(array: NumericArray, i: number): number {
  return array[i] as number;
}

/** The per-token inputs every GAE variant takes. */
export interface TokenSequence {
  /** Token rewards r, one per token. */
  rewards: NumericArray;
  /** Critic values V, one per token (read only where lossMask is 1). */
  values: NumericArray;
  /** M^loss: 1 on generated tokens, 0 on system / observation / image / padding tokens. */
  lossMask: NumericArray;
}

/** Checks rewards / values / lossMask (types, finiteness, 0/1, equal lengths); returns the masked positions. */
export function checkSequence(sequence: TokenSequence, prefix = ''): number[] {
  if (typeof sequence !== 'object' || sequence === null) fail(prefix || 'input', 'an object with rewards, values and lossMask', sequence);
  const rewards = checkFiniteArray(sequence.rewards, `${prefix}rewards`);
  const values = checkFiniteArray(sequence.values, `${prefix}values`);
  const lossMask = checkMask(sequence.lossMask, `${prefix}lossMask`);
  checkSameLength(rewards.length, values, `${prefix}values`, `${prefix}rewards`);
  checkSameLength(rewards.length, lossMask, `${prefix}lossMask`, `${prefix}rewards`);
  return maskedPositions(lossMask);
}

export function checkBatch<T>(sequences: unknown, argument = 'sequences'): readonly T[] {
  if (!Array.isArray(sequences)) fail(argument, 'an array of sequences', sequences);
  return sequences as readonly T[];
}
