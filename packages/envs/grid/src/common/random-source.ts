/** A uniform random number in [0, 1); the grid logic draws every random choice from one. */
export type RandomSource = () => number;

/** A uniform integer in [0, n). */
export function randomInt(random: RandomSource, n: number): number {
  return Math.min(n - 1, Math.floor(random() * n));
}
