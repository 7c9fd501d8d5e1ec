import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectClose, expectNoLeak, initWasm, kernelNames, largestMagnitude, randomTensor, readOutputs } from '../test/compare-backends.js';
import { SMOOTH_MAX_STEM_GRAD_KERNEL, SMOOTH_MAX_STEM_KERNEL, smoothMaxStemConfig } from './kernels/smooth-max-stem.js';
import { setNativeMatMulEnabled, setSimdKernelsEnabled, smoothMaxStem, smoothMaxStemOps, tf, type SmoothMaxStemOptions } from './index.js';

beforeAll(initWasm);
// These tests check the fused kernels' arithmetic against the ops route to ~1e-6: the ops' products
// stay on the wasm kernels, which the native products match bit for bit only in their default exact
// mode (SACCADE_NATIVE_MATMUL=fused rounds them otherwise).
beforeAll(() => setNativeMatMulEnabled(false));
afterAll(() => setNativeMatMulEnabled(true));
afterEach(() => setSimdKernelsEnabled(true));

interface Case {
  count: number;
  options: SmoothMaxStemOptions;
  channels: number;
  /** Scales the weights: 40 makes β·f reach thousands, where e^(β·f) overflows without the max. */
  scale: number;
  seed: number;
  /** Pixels of a flat image (each block one colour, so features tie at the max), centred on 0 as the model's are. */
  flat: boolean;
}

/** Pixels in [0, 1), or flat blocks in [−0.5, 0.5]; weights and bias of both signs (some features dead). */
function inputs({ count, options, channels, scale, seed, flat }: Case) {
  const side = options.patchSize;
  const pixels = tf.tidy(() => {
    if (!flat) return tf.div(tf.add(randomTensor([count, side * side * 3], seed), 1), 2);
    const blocks = side / options.pool;
    const colours = tf.round(tf.mul(randomTensor([count, blocks, 1, blocks, 1, 3], seed), 2));
    return tf.reshape(tf.mul(tf.tile(colours, [1, 1, options.pool, 1, options.pool, 1]), 0.25), [count, side * side * 3]);
  }) as tf.Tensor2D;
  const weight = tf.tidy(() => tf.mul(randomTensor([3, channels], seed + 1), scale));
  const bias = tf.tidy(() => tf.mul(randomTensor([channels], seed + 2), scale / 4));
  const dy = randomTensor([count, (side / options.pool) ** 2 * channels], seed + 3);
  return { pixels, weight, bias, dy };
}

/** The stem's value and the gradients of Σ dy·stem for weight and bias. */
function run(stem: typeof smoothMaxStem, { pixels, weight, bias, dy }: ReturnType<typeof inputs>, options: SmoothMaxStemOptions) {
  const value = stem(pixels, weight, bias, options);
  const { grads } = tf.variableGrads(() => tf.sum(tf.mul(stem(pixels, weight as tf.Variable, bias, options), dy)) as tf.Scalar, [weight as tf.Variable, bias as tf.Variable]);
  return [value, ...Object.values(grads)];
}

/** The stem and Σ dy·stem's weight and bias gradients in doubles, straight from the definition. */
function float64Stem(p: ArrayLike<number>, w: ArrayLike<number>, b: ArrayLike<number>, dy: ArrayLike<number>, { count, options, channels }: Case) {
  const { patchSize: side, pool, sharpness: beta } = options;
  const blocks = side / pool;
  const out = new Float64Array(count * blocks * blocks * channels);
  const dw = new Float64Array(3 * channels);
  const db = new Float64Array(channels);
  for (let n = 0; n < count; n++) for (let by = 0; by < blocks; by++) for (let bx = 0; bx < blocks; bx++) for (let c = 0; c < channels; c++) {
    const f: number[] = [];
    const px: number[][] = [];
    for (let i = 0; i < pool; i++) for (let j = 0; j < pool; j++) {
      const at = ((n * side + by * pool + i) * side + bx * pool + j) * 3;
      const q = [p[at]!, p[at + 1]!, p[at + 2]!];
      px.push(q);
      f.push(Math.max(0, q[0]! * w[c]! + q[1]! * w[channels + c]! + q[2]! * w[2 * channels + c]! + b[c]!));
    }
    const m = Math.max(...f.map((v) => beta * v));
    const e = f.map((v) => Math.exp(beta * v - m));
    const total = e.reduce((x, y) => x + y, 0);
    const o = ((n * blocks + by) * blocks + bx) * channels + c;
    out[o] = (m + Math.log(total) - Math.log(pool * pool)) / beta;
    e.forEach((ei, k) => {
      if (f[k]! <= 0) return;
      const g = (dy[o]! * ei) / total;
      for (let r = 0; r < 3; r++) dw[r * channels + c] = (dw[r * channels + c] ?? 0) + g * px[k]![r]!;
      db[c] = (db[c] ?? 0) + g;
    });
  }
  return [out, dw, db];
}

describe('smoothMaxStem', () => {
  const cases: Case[] = [
    // The visual-search recipe's stem: 16-px patches, 4 × 4 blocks, 16 channels, β 30.
    { count: 8, options: { patchSize: 16, pool: 4, sharpness: 30 }, channels: 16, scale: 1, seed: 1, flat: false },
    { count: 8, options: { patchSize: 16, pool: 4, sharpness: 30 }, channels: 16, scale: 40, seed: 2, flat: false },
    // Channels not a multiple of four (a partial lane group), other pools and β.
    { count: 5, options: { patchSize: 8, pool: 2, sharpness: 30 }, channels: 6, scale: 3, seed: 3, flat: false },
    { count: 3, options: { patchSize: 6, pool: 3, sharpness: 10 }, channels: 3, scale: 2, seed: 4, flat: false },
    { count: 2, options: { patchSize: 8, pool: 8, sharpness: 30 }, channels: 5, scale: 60, seed: 5, flat: false },
    // Flat blocks: every pixel of a block ties at the max, and blocks whose features are all dead.
    { count: 6, options: { patchSize: 8, pool: 2, sharpness: 30 }, channels: 4, scale: 1, seed: 6, flat: true },
  ];

  it.each(cases)('gives the tfjs ops\' values and autodiff gradients: $count patches of $options.patchSize px, pool $options.pool, $channels channels, weights ×$scale, flat $flat', async (c) => {
    const given = inputs(c);
    const weight = tf.variable(given.weight);
    const bias = tf.variable(given.bias);
    const all = { ...given, weight, bias };
    const fused = readOutputs(run(smoothMaxStem, all, c.options));
    const reference = readOutputs(run(smoothMaxStemOps, all, c.options));
    // Forward: the same floats up to rounding (the kernel's exp and log are not musl's, and it
    // adds in the same order). Values near 0 are a difference of two logs whose own rounding is
    // ~1e-8, hence the absolute floor.
    expectClose(fused[0]!, reference[0]!, 1e-6, 1e-7);
    // Gradients: within 1e-5 of the largest (the graph sums thousands of pixels in floats).
    for (const index of [1, 2]) expectClose(fused[index]!, reference[index]!, 0, 1e-5 * largestMagnitude(reference[index]!));
    if (c.scale >= 40) expect(largestMagnitude(reference[0]!) * c.options.sharpness).toBeGreaterThan(1000); // e^(β·f) overflows floats
    // And within 1e-5 of the largest of the same sums in doubles, straight from the definition.
    const truth = float64Stem(given.pixels.dataSync(), weight.dataSync(), bias.dataSync(), given.dy.dataSync(), c);
    for (const index of [0, 1, 2]) expectClose(fused[index]!, truth[index]!, 0, 1e-5 * largestMagnitude(truth[index]!));
    expect(await kernelNames(() => run(smoothMaxStem, all, c.options))).toEqual(expect.arrayContaining([SMOOTH_MAX_STEM_KERNEL, SMOOTH_MAX_STEM_GRAD_KERNEL]));
    expect(await kernelNames(() => run(smoothMaxStem, all, c.options))).not.toContain('Equal');
    tf.dispose([given.pixels, given.dy, weight, bias, given.weight, given.bias]);
  });

  it("runs the tfjs ops (and differentiates the max through tfjs's Equal) when the SIMD kernels are off or the kernels unregistered", async () => {
    const c = cases[0]!;
    const given = inputs(c);
    const all = { ...given, weight: tf.variable(given.weight), bias: tf.variable(given.bias) };
    const fused = run(smoothMaxStem, all, c.options).map((output) => output.dataSync());
    setSimdKernelsEnabled(false);
    const names = await kernelNames(() => run(smoothMaxStem, all, c.options));
    expect(names).toContain('Equal');
    expect(names).not.toContain(SMOOTH_MAX_STEM_KERNEL);
    const off = run(smoothMaxStem, all, c.options).map((output) => output.dataSync());
    setSimdKernelsEnabled(true);
    tf.unregisterKernel(SMOOTH_MAX_STEM_KERNEL, 'wasm');
    try {
      expect(await kernelNames(() => smoothMaxStem(given.pixels, all.weight, all.bias, c.options))).not.toContain(SMOOTH_MAX_STEM_KERNEL);
    } finally {
      tf.registerKernel(smoothMaxStemConfig);
    }
    expectClose(fused[0]!, off[0]!, 1e-6, 1e-7);
    tf.dispose([given.pixels, given.dy, given.weight, given.bias, all.weight, all.bias]);
  });

  it('passes no gradient to the pixels (image data): asking for one is an error', () => {
    const c = cases[2]!;
    const given = inputs(c);
    expect(() => tf.grad((pixels: tf.Tensor) => tf.sum(smoothMaxStem(pixels as tf.Tensor2D, given.weight, given.bias, c.options)))(given.pixels)).toThrow(
      'Cannot compute gradient of y=f(x) with respect to x',
    );
    tf.dispose([given.pixels, given.dy, given.weight, given.bias]);
  });

  it('says which shape it expected', () => {
    const c = cases[2]!;
    const { pixels, weight, bias, dy } = inputs(c);
    const options = c.options;
    expect(() => smoothMaxStem(pixels, weight, bias, { ...options, pool: 3 })).toThrow('smoothMaxStem: pool must be a positive divisor of patchSize; got pool 3, patchSize 8');
    expect(() => smoothMaxStem(pixels, weight, bias, { ...options, sharpness: 0 })).toThrow('smoothMaxStem: sharpness must be > 0; got 0');
    expect(() => smoothMaxStem(pixels, tf.transpose(weight), bias, options)).toThrow('smoothMaxStem: weight must be [3, channels]; got [6, 3]');
    expect(() => smoothMaxStem(pixels, weight, tf.zeros([4]), options)).toThrow('smoothMaxStem: bias must be [6]; got [4]');
    expect(() => smoothMaxStem(tf.zeros([2, 10]) as tf.Tensor2D, weight, bias, options)).toThrow('smoothMaxStem: pixels must be [patches, 192] (8² pixels of 3 values); got [2, 10]');
    tf.dispose([pixels, weight, bias, dy]);
  });

  it('handles no patches', () => {
    const c = cases[2]!;
    const given = inputs({ ...c, count: 0 });
    const all = { ...given, weight: tf.variable(given.weight), bias: tf.variable(given.bias) };
    const [value, dWeight, dBias] = run(smoothMaxStem, all, c.options);
    expect(value!.shape).toEqual([0, 16 * 6]);
    expect(Array.from(dWeight!.dataSync())).toEqual(new Array(18).fill(0));
    expect(Array.from(dBias!.dataSync())).toEqual(new Array(6).fill(0));
    tf.dispose([given.pixels, given.dy, given.weight, given.bias, all.weight, all.bias, value!, dWeight!, dBias!]);
  });

  it('does not leak tensors, data or heap', () => {
    const c = cases[2]!;
    const given = inputs(c);
    const all = { ...given, weight: tf.variable(given.weight), bias: tf.variable(given.bias) };
    expectNoLeak(() => run(smoothMaxStem, all, c.options));
    tf.dispose([given.pixels, given.dy, given.weight, given.bias, all.weight, all.bias]);
  });
});
