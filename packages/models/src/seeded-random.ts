/** A seeded uniform [0, 1) generator (mulberry32): sampling and initialisation never use Math.random. */
export type RandomSource = () => number;

/**
 * A RandomSource seeded with `seed`: the same seed gives the same numbers on every backend and
 * machine.
 */
export function createRandom(seed: number): RandomSource {
  let state = (Math.floor(seed) ^ 0x9e3779b9) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Standard normal samples (Box–Muller) from a uniform source. */
export function normalSample(random: RandomSource): number {
  const u = Math.max(random(), 1e-12);
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}
