/** A contiguous range of env seeds: a training split or a held-out split. */
export interface SeedRange {
  start: number;
  count: number;
}

/** The seeds of a range, in order: `start`, `start + 1`, … (`count` of them). */
export function seedRange({ start, count }: SeedRange): number[] {
  return Array.from({ length: count }, (_, index) => start + index);
}

/** Throws when held-out seeds overlap the training seeds. */
export function assertDisjointSeeds(train: SeedRange, evaluation: SeedRange): void {
  const overlapStart = Math.max(train.start, evaluation.start);
  const overlapEnd = Math.min(train.start + train.count, evaluation.start + evaluation.count);
  if (overlapStart < overlapEnd) {
    throw new RangeError(`Evaluation seeds overlap the training seeds (e.g. ${overlapStart}); held-out seeds must be unseen.`);
  }
}
