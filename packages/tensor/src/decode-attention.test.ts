import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectClose, expectNoLeak, initWasm, randomTensor } from '../test/compare-backends.js';
import { decodeAttention, decodeAttentionOps, fusedAttentionOps, setSimdKernelsEnabled, tf, type KvCacheLayer } from './index.js';

beforeAll(initWasm);
afterEach(() => setSimdKernelsEnabled(true));

const MASKED = -1e9;

/** Row r's first r positions are left padding (masked); later positions are free. */
function leftPaddingBias(rows: number, capacity: number): tf.Tensor2D {
  const values = new Float32Array(rows * capacity);
  for (let r = 0; r < rows; r++) for (let t = 0; t < r; t++) values[r * capacity + t] = MASKED;
  return tf.tensor2d(values, [rows, capacity]);
}

/** A cache whose filled positions are random and whose free ones hold 7s (never to be read). */
function cacheOf(rows: number, heads: number, capacity: number, size: number, position: number, seed: number): KvCacheLayer {
  const make = (offset: number) =>
    tf.tidy(() => {
      const filled = randomTensor([rows, heads, position, size], seed + offset);
      return tf.concat([filled, tf.fill([rows, heads, capacity - position, size], 7)], 2) as tf.Tensor4D;
    });
  return { keys: make(0), values: make(1) };
}

describe('decodeAttention', () => {
  for (const size of [32, 8, 6]) {
    it(`equals the tfjs ops and writes the step's key and value at position (size ${size})`, async () => {
      const [rows, heads, capacity, position] = [5, 3, 9, 4];
      const qkv = tf.tidy(() => tf.mul(randomTensor([rows, 3 * heads * size], 11), 3)) as tf.Tensor2D;
      const bias = leftPaddingBias(rows, capacity);
      const ops = cacheOf(rows, heads, capacity, size, position, 20);
      const expected = decodeAttentionOps(qkv, ops, bias, { heads, position });
      const fusedCache = cacheOf(rows, heads, capacity, size, position, 20);
      const actual = decodeAttention(qkv, fusedCache, bias, { heads, position });
      // The kernel's route writes in place; the ops' route leaves its input as it was.
      expect(actual.keys).toBe(fusedCache.keys);
      expect(actual.values).toBe(fusedCache.values);
      expect(expected.keys).not.toBe(ops.keys);
      expect(Array.from(await expected.keys.data())).toEqual(Array.from(await actual.keys.data()));
      expect(Array.from(await expected.values.data())).toEqual(Array.from(await actual.values.data()));
      // The written slot holds k and v of the step: head 2 of row 3.
      const k = (await qkv.data()).slice(3 * 3 * heads * size + heads * size + 2 * size, 3 * 3 * heads * size + heads * size + 3 * size);
      const slot = ((3 * heads + 2) * capacity + position) * size;
      expect(Array.from((await actual.keys.data()).slice(slot, slot + size))).toEqual(Array.from(k));
      expect((await ops.keys.data())[slot]).toBe(7);
      expectClose(await actual.context.data(), await expected.context.data(), 1e-5, 1e-6);
      tf.dispose([qkv, bias, ops.keys, ops.values, expected.keys, expected.values, expected.context, fusedCache.keys, fusedCache.values, actual.context]);
    });
  }

  it('step by step equals causal attention over the whole left-padded sequences', async () => {
    const [rows, heads, size, length] = [4, 2, 8, 7];
    const d = heads * size;
    const qkv = tf.tidy(() => tf.mul(randomTensor([rows * length, 3 * d], 5), 2)) as tf.Tensor2D;
    const bias = leftPaddingBias(rows, length);
    // The whole sequences: causal plus each row's left padding, [rows, 1, length, length].
    const full = tf.tidy(() => {
      const causal = tf.sub(tf.linalg.bandPart(tf.ones([length, length]), -1, 0), 1);
      const mask = tf.add(tf.mul(causal, 1e9), tf.expandDims(bias, 1));
      return fusedAttentionOps(qkv, tf.expandDims(mask, 1), { batch: rows, length, heads });
    });
    const expected = await full.data();
    let cache: KvCacheLayer = { keys: tf.zeros([rows, heads, length, size]), values: tf.zeros([rows, heads, length, size]) };
    const rowsOf = await qkv.array();
    // Rows whose position is padding (every key masked so far) are left out of the comparison.
    for (let position = 0; position < length; position++) {
      const step = tf.tensor2d(Array.from({ length: rows }, (_, r) => rowsOf[r * length + position]!), [rows, 3 * d]);
      const result = decodeAttention(step, cache, bias, { heads, position });
      const context = await result.context.data();
      for (let r = 0; r <= Math.min(position, rows - 1); r++) {
        expectClose(context.slice(r * d, (r + 1) * d), expected.slice((r * length + position) * d, (r * length + position + 1) * d), 1e-5, 1e-6);
      }
      tf.dispose([step, result.context]);
      cache = { keys: result.keys, values: result.values };
    }
    tf.dispose([qkv, bias, full, cache.keys, cache.values]);
  });

  it('falls back to the ops, with new cache tensors, when the SIMD kernels are off', async () => {
    setSimdKernelsEnabled(false);
    const cache = cacheOf(2, 2, 5, 4, 2, 3);
    const qkv = randomTensor([2, 24], 4) as tf.Tensor2D;
    const result = decodeAttention(qkv, cache, undefined, { heads: 2, position: 2 });
    expect(result.keys).not.toBe(cache.keys);
    expect((await cache.keys.data())[2 * 4]).toBe(7);
    tf.dispose([cache.keys, cache.values, qkv, result.keys, result.values, result.context]);
  });

  it('refuses a cache that shares its data with another tensor', () => {
    const cache = cacheOf(2, 2, 5, 4, 2, 3);
    const clone = tf.clone(cache.keys);
    const qkv = randomTensor([2, 24], 4) as tf.Tensor2D;
    expect(() => decodeAttention(qkv, cache, undefined, { heads: 2, position: 2 })).toThrow(/keys must be the only tensor on its data; 2 tensors share it/);
    tf.dispose([cache.keys, cache.values, clone, qkv]);
  });

  it('says what shapes it expected', () => {
    const cache = cacheOf(2, 2, 5, 4, 2, 3);
    const qkv = randomTensor([2, 24], 4) as tf.Tensor2D;
    expect(() => decodeAttention(qkv, cache, undefined, { heads: 2, position: 5 })).toThrow('decodeAttention: position must be a whole number in [0, 5) (the cache\'s capacity); got 5');
    expect(() => decodeAttention(qkv, cache, tf.zeros([2, 4]), { heads: 2, position: 1 })).toThrow('decodeAttention: bias must be [rows, capacity] = [2, 5]; got [2, 4]');
    expect(() => decodeAttention(tf.zeros([2, 12]), cache, undefined, { heads: 2, position: 1 })).toThrow('decodeAttention: qkv must be [rows, 3·heads·size] = [2, 24]; got [2, 12]');
    tf.dispose([cache.keys, cache.values, qkv]);
  });

  it('leaks no tensors or heap', () => {
    const cache = cacheOf(3, 2, 16, 8, 5, 9);
    const qkv = randomTensor([3, 48], 4) as tf.Tensor2D;
    const bias = leftPaddingBias(3, 16);
    expectNoLeak(() => [decodeAttention(qkv, cache, bias, { heads: 2, position: 5 }).context]);
    tf.dispose([cache.keys, cache.values, qkv, bias]);
  });
});
