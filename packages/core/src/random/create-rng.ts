import { InvalidArgumentError } from '@saccade/spec';

/**
 * A seeded random number generator. The sequence is fixed by the algorithm's definition, so the
 * same seed gives the same numbers on every machine and every Node version.
 */
export interface Rng {
  /** The 64-bit seed the generator started from (numbers and strings are mapped to it). */
  readonly seed: bigint;
  /** The next 32-bit unsigned integer of the xoshiro128** stream. */
  uint32(): number;
  /** A float in [0, 1) with 53 random bits. */
  next(): number;
  /** An integer in [min, max], both included, without modulo bias. */
  int(min: number, max: number): number;
  /** One element of a non-empty array, uniformly. */
  pick<T>(items: readonly T[]): T;
  /** A shuffled copy of the array (Fisher–Yates); the input is left as it is. */
  shuffle<T>(items: readonly T[]): T[];
  /** A normally distributed number (Box–Muller). */
  normal(mean?: number, standardDeviation?: number): number;
  /**
   * An independent generator for a named purpose. It depends only on this generator's seed and
   * the label, not on how many numbers were drawn, so adding draws elsewhere never shifts it.
   */
  fork(label: string): Rng;
}

const MASK_64 = (1n << 64n) - 1n;

/** splitmix64 (Steele, Lea, Flood 2014), as in Vigna's reference code; returns [next state, output]. */
function splitmix64(state: bigint): [bigint, bigint] {
  const next = (state + 0x9e3779b97f4a7c15n) & MASK_64;
  let z = next;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK_64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK_64;
  return [next, z ^ (z >> 31n)];
}

/** 64-bit FNV-1a over the UTF-8 bytes of a string. */
function fnv1a64(text: string): bigint {
  let hash = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & MASK_64;
  }
  return hash;
}

function seedToBigInt(seed: number | bigint | string): bigint {
  if (typeof seed === 'string') return fnv1a64(seed);
  if (typeof seed === 'bigint') return BigInt.asUintN(64, seed);
  if (!Number.isSafeInteger(seed)) {
    throw new InvalidArgumentError({ argument: 'seed', expected: 'a safe integer, a bigint or a string', value: seed });
  }
  return BigInt.asUintN(64, BigInt(seed));
}

const rotl = (x: number, k: number): number => ((x << k) | (x >>> (32 - k))) >>> 0;

/**
 * Creates a seeded generator: xoshiro128** 1.0 (Blackman and Vigna 2018), its 128-bit state filled
 * from two splitmix64 outputs of the seed (low 32 bits first). A number seed is taken as a 64-bit
 * two's-complement integer, a string seed is hashed with 64-bit FNV-1a.
 *
 * @example
 * const rng = createRng(42);
 * rng.int(1, 6); // a die roll, the same on every machine
 */
export function createRng(seed: number | bigint | string): Rng {
  const seed64 = seedToBigInt(seed);
  const [state1, a] = splitmix64(seed64);
  const [, b] = splitmix64(state1);
  const s = new Uint32Array([Number(a & 0xffffffffn), Number(a >> 32n), Number(b & 0xffffffffn), Number(b >> 32n)]);
  if ((s[0]! | s[1]! | s[2]! | s[3]!) === 0) s[0] = 1; // the all-zero state is a fixed point

  const uint32 = (): number => {
    const s0 = s[0]!;
    const s1 = s[1]!;
    const result = Math.imul(rotl(Math.imul(s1, 5) >>> 0, 7), 9) >>> 0;
    const t = (s1 << 9) >>> 0;
    s[2] = s[2]! ^ s0;
    s[3] = s[3]! ^ s1;
    s[1] = s1 ^ s[2]!;
    s[0] = s0 ^ s[3]!;
    s[2] = s[2]! ^ t;
    s[3] = rotl(s[3]!, 11);
    return result;
  };

  const next = (): number => ((uint32() >>> 5) * 67108864 + (uint32() >>> 6)) / 9007199254740992;

  const int = (min: number, max: number): number => {
    if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || min > max) {
      throw new InvalidArgumentError({
        argument: 'min, max',
        expected: 'safe integers with min <= max',
        value: [min, max],
      });
    }
    const range = max - min + 1;
    if (range <= 0x100000000) {
      // Rejection sampling: accept only values below the largest multiple of range.
      const limit = 0x100000000 - (0x100000000 % range);
      for (;;) {
        const x = uint32();
        if (x < limit) return min + (x % range);
      }
    }
    return min + Math.floor(next() * range);
  };

  const rng: Rng = {
    seed: seed64,
    uint32,
    next,
    int,
    pick<T>(items: readonly T[]): T {
      if (items.length === 0) {
        throw new InvalidArgumentError({ argument: 'items', expected: 'a non-empty array', value: items });
      }
      return items[int(0, items.length - 1)] as T;
    },
    shuffle<T>(items: readonly T[]): T[] {
      const copy = items.slice();
      for (let i = copy.length - 1; i > 0; i--) {
        const j = int(0, i);
        const swap = copy[i] as T;
        copy[i] = copy[j] as T;
        copy[j] = swap;
      }
      return copy;
    },
    normal(mean = 0, standardDeviation = 1): number {
      const u1 = 1 - next(); // in (0, 1], so the log is finite
      const u2 = next();
      return mean + standardDeviation * Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    },
    fork(label: string): Rng {
      const [, mixed] = splitmix64(seed64 ^ fnv1a64(label));
      return createRng(mixed);
    },
  };
  return rng;
}
