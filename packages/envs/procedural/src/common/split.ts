import { InvalidArgumentError } from '@saccade/spec';

/** Which half of a generator's seed space a task comes from. */
export type Split = 'train' | 'test';
/** The two splits, `train` then `test`. */
export const SPLITS: readonly Split[] = ['train', 'test'];

/**
 * The generation seeds of each split: two disjoint halves of the 32-bit range, so a test task is
 * never a train task (whatever the index). Index i of a split is seed `start + (i mod size)`.
 */
export const SPLIT_SEED_RANGES: Readonly<Record<Split, { start: number; size: number }>> = {
  train: { start: 0, size: 2 ** 31 },
  test: { start: 2 ** 31, size: 2 ** 31 },
};

/** The split, or an InvalidArgumentError when it is neither `train` nor `test`. */
export function checkSplit(split: unknown): Split {
  if (split === 'train' || split === 'test') return split;
  throw new InvalidArgumentError({ argument: 'split', expected: "'train' or 'test'", value: split });
}

/** The generation seed of a split's task `index` (a non-negative integer). */
export function seedForIndex(split: Split, index: number): number {
  if (!Number.isSafeInteger(index) || index < 0) {
    throw new InvalidArgumentError({ argument: 'index', expected: 'a non-negative safe integer', value: index });
  }
  const { start, size } = SPLIT_SEED_RANGES[checkSplit(split)];
  return start + (index % size);
}

/** The split a generation seed belongs to. */
export function splitOfSeed(seed: number): Split {
  return seed >= SPLIT_SEED_RANGES.test.start ? 'test' : 'train';
}
