/**
 * CPython's `random` module as far as VAGEN's dataset seeds need it: `random.seed(int)` (MT19937
 * seeded by init_by_array over the integer's 32-bit words), `getrandbits`, `_randbelow` and
 * `sample`, so that `random.seed(0); random.sample(range(n), k)` gives Python's exact list.
 */
export class PythonRandom {
  readonly #state = new Uint32Array(624);
  #index = 625;

  constructor(seed: number) {
    if (!Number.isSafeInteger(seed) || seed < 0) throw new RangeError(`PythonRandom: expected a non-negative safe integer seed, received ${seed}.`);
    const key: number[] = [];
    for (let rest = seed; rest > 0 || key.length === 0; rest = Math.floor(rest / 2 ** 32)) key.push(rest % 2 ** 32);
    this.#initByArray(key);
  }

  #initGenrand(seed: number): void {
    const mt = this.#state;
    mt[0] = seed >>> 0;
    for (let i = 1; i < 624; i++) {
      const previous = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = (Math.imul(1812433253, previous) + i) >>> 0;
    }
    this.#index = 624;
  }

  #initByArray(key: readonly number[]): void {
    this.#initGenrand(19650218);
    const mt = this.#state;
    let i = 1;
    let j = 0;
    for (let k = Math.max(624, key.length); k > 0; k--) {
      const previous = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = ((mt[i]! ^ Math.imul(previous, 1664525)) + key[j]! + j) >>> 0;
      i++;
      j++;
      if (i >= 624) {
        mt[0] = mt[623]!;
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = 623; k > 0; k--) {
      const previous = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = ((mt[i]! ^ Math.imul(previous, 1566083941)) - i) >>> 0;
      i++;
      if (i >= 624) {
        mt[0] = mt[623]!;
        i = 1;
      }
    }
    mt[0] = 0x80000000;
  }

  /** genrand_uint32. */
  next32(): number {
    const mt = this.#state;
    if (this.#index >= 624) {
      for (let k = 0; k < 624; k++) {
        const y = (mt[k]! & 0x80000000) | (mt[(k + 1) % 624]! & 0x7fffffff);
        mt[k] = (mt[(k + 397) % 624]! ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0)) >>> 0;
      }
      this.#index = 0;
    }
    let y = mt[this.#index++]!;
    y ^= y >>> 11;
    y = (y ^ ((y << 7) & 0x9d2c5680)) >>> 0;
    y = (y ^ ((y << 15) & 0xefc60000)) >>> 0;
    return (y ^ (y >>> 18)) >>> 0;
  }

  /** random.getrandbits(k) for k ≤ 32. */
  getrandbits(bits: number): number {
    if (bits <= 0 || bits > 32) throw new RangeError(`getrandbits: expected 1 to 32 bits, received ${bits}.`);
    return this.next32() >>> (32 - bits);
  }

  /** random._randbelow(n): uniform in [0, n) by rejection over bit_length(n) bits. */
  randbelow(n: number): number {
    const bits = Math.floor(Math.log2(n)) + 1;
    let value = this.getrandbits(bits);
    while (value >= n) value = this.getrandbits(bits);
    return value;
  }

  /** random.sample(range(start, stop), k). */
  sampleRange(start: number, stop: number, k: number): number[] {
    const n = stop - start;
    if (k < 0 || k > n) throw new RangeError(`sample: expected 0 ≤ k ≤ ${n}, received ${k}.`);
    let setSize = 21;
    if (k > 5) setSize += 4 ** Math.ceil(Math.log(k * 3) / Math.log(4));
    const result: number[] = [];
    if (n <= setSize) {
      const pool = Array.from({ length: n }, (_, index) => start + index);
      for (let i = 0; i < k; i++) {
        const j = this.randbelow(n - i);
        result.push(pool[j]!);
        pool[j] = pool[n - i - 1]!;
      }
      return result;
    }
    const selected = new Set<number>();
    for (let i = 0; i < k; i++) {
      let j = this.randbelow(n);
      while (selected.has(j)) j = this.randbelow(n);
      selected.add(j);
      result.push(start + j);
    }
    return result;
  }
}

/** VAGEN's BaseEnvConfig.generate_seeds(size): random.seed(0); random.sample(range(0, 20000 + size), size). */
export function vagenSeeds(size: number, seed = 0, candidates = 20_000): number[] {
  return new PythonRandom(seed).sampleRange(0, candidates + size, size);
}
