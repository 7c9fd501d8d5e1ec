import { beforeAll, describe, expect, it } from 'vitest';
import { expectClose, expectNoLeak, initWasm, kernelNames, largestMagnitude, randomTensor } from '../test/compare-backends.js';
import { expShiftedByMax, smoothMaximum, stableLogSumExp, tf } from './index.js';

beforeAll(initWasm);

interface LogSumExpCase {
  name: string;
  shape: number[];
  axis: number | number[] | null;
  keepDims: boolean;
  /** Values are relu(u)·scale for uniform u in [−1, 1): the readouts' β·v (β = 10) of ReLU features; 400 overflows exp without the shift. */
  scale: number;
  /** Sets every 7th value to this (−Infinity, or a very negative finite number). */
  masked?: number;
}

const logSumExpCases: LogSumExpCase[] = [
  { name: "the 'conv' readout's blocks of a patch", shape: [64, 16, 32], axis: 1, keepDims: false, scale: 10 },
  { name: "the 'conv' readout's tokens of an image", shape: [8, 64, 32], axis: 1, keepDims: false, scale: 10 },
  { name: 'large values (exp would overflow)', shape: [16, 24], axis: -1, keepDims: false, scale: 400 },
  { name: 'two axes, dims kept', shape: [6, 7, 5, 3], axis: [1, 3], keepDims: true, scale: 10 },
  { name: 'all axes', shape: [9, 11], axis: null, keepDims: false, scale: 10 },
  { name: '−Infinity entries', shape: [12, 20], axis: -1, keepDims: true, scale: 10, masked: -Infinity },
  { name: 'very negative entries', shape: [12, 20], axis: 1, keepDims: false, scale: 10, masked: -1e9 },
];

function logSumExpInput({ shape, scale, masked }: LogSumExpCase, seed: number): tf.Tensor {
  return tf.tidy(() => {
    const values = tf.mul(tf.relu(randomTensor(shape, seed)), scale);
    if (masked === undefined) return values;
    const every7th = tf.equal(tf.mod(tf.reshape(tf.range(0, values.size, 1, 'int32'), shape), 7), 0);
    return tf.where(every7th, tf.fill(shape, masked), values);
  });
}

/** The gradient of Σ dy·log Σ exp(x) in doubles: dy·softmax(x), dy's entry of each element's group. */
function float64LogSumExpGradient(x: ArrayLike<number>, shape: number[], axis: number | number[] | null, dy: ArrayLike<number>): Float64Array {
  const axes = tf.util.parseAxisParam(axis ?? shape.map((_, at) => at), shape);
  const strides = shape.map((_, at) => shape.slice(at + 1).reduce((a, b) => a * b, 1));
  const groupOf = (flat: number) => shape.reduce((group, size, at) => (axes.includes(at) ? group : group * size + (Math.floor(flat / strides[at]!) % size)), 0);
  const groups = Array.from({ length: x.length }, (_, flat) => groupOf(flat));
  const max = new Float64Array(dy.length).fill(-Infinity);
  const sum = new Float64Array(dy.length);
  groups.forEach((group, flat) => (max[group] = Math.max(max[group]!, x[flat]!)));
  groups.forEach((group, flat) => (sum[group]! += Math.exp(x[flat]! - max[group]!)));
  return Float64Array.from(groups, (group, flat) => (dy[group]! * Math.exp(x[flat]! - max[group]!)) / sum[group]!);
}

/** The value and the gradient of Σ dy·lse(x) with respect to x. */
function runLogSumExp(lse: (x: tf.Tensor) => tf.Tensor, x: tf.Tensor, dy: tf.Tensor): [tf.Tensor, tf.Tensor] {
  return [lse(x), tf.grad((input: tf.Tensor) => tf.sum(tf.mul(lse(input), dy)))(x)];
}

describe('stableLogSumExp', () => {
  for (const [index, c] of logSumExpCases.entries()) {
    it(`gives tf.logSumExp's values float for float and the exact gradient within 5e-7 (tfjs's autodiff within 2e-6), without Equal: ${c.name}`, async () => {
      const x = logSumExpInput(c, 10 + index);
      const ours = (input: tf.Tensor) => stableLogSumExp(input, c.axis, c.keepDims);
      const theirs = (input: tf.Tensor) => tf.logSumExp(input, c.axis ?? undefined, c.keepDims);
      const value = ours(x);
      const expected = theirs(x);
      expect(value.shape).toEqual(expected.shape);
      expect(Array.from(value.dataSync())).toEqual(Array.from(expected.dataSync()));
      expect(value.dataSync().every(Number.isFinite)).toBe(true);
      const dy = randomTensor(expected.shape, 100 + index);
      const [, gradient] = runLogSumExp(ours, x, dy);
      const [, autodiff] = runLogSumExp(theirs, x, dy);
      // tfjs's autodiff rounds at each max, where it adds dy and takes dy·Σ softmax back off (1 − Σ
      // in floats): up to ~1.3e-6 from the doubles over 64 terms, where this gradient is within 2e-7.
      expectClose(gradient.dataSync(), float64LogSumExpGradient(x.dataSync(), c.shape, c.axis, dy.dataSync()), 0, 5e-7);
      expectClose(gradient.dataSync(), autodiff.dataSync(), 0, 2e-6);
      const names = await kernelNames(() => runLogSumExp(ours, x, dy));
      expect(names).not.toContain('Equal');
      expect(await kernelNames(() => runLogSumExp(theirs, x, dy))).toContain('Equal');
      tf.dispose([x, value, expected, dy, gradient, autodiff]);
    });
  }

  it('is −Infinity or NaN where tf.logSumExp is (a row of −Infinity, a row with +Infinity)', () => {
    const x = tf.tensor2d([
      [-Infinity, -Infinity, -Infinity],
      [-Infinity, 0, 1],
      [Infinity, 0, 1],
    ]);
    const value = stableLogSumExp(x, 1);
    const expected = tf.logSumExp(x, 1);
    expect(Array.from(value.dataSync())).toEqual(Array.from(expected.dataSync()));
    tf.dispose([x, value, expected]);
  });

  it('does not leak tensors, data or heap, and keeps only its result', () => {
    const c = logSumExpCases[5]!;
    const x = logSumExpInput(c, 3);
    const dy = randomTensor([12, 1], 4);
    expectNoLeak(() => runLogSumExp((input) => stableLogSumExp(input, -1, true), x, dy));
    const before = tf.memory().numTensors;
    const value = stableLogSumExp(x, -1, true);
    expect(tf.memory().numTensors).toBe(before + 1);
    tf.dispose([x, dy, value]);
  });
});

/**
 * The grid pointer's marginal over the pointed-at image's keys (models' grid-pointer.ts): masked
 * scores, exp(s − max) weights zeroed off the image, a sum that is 1 where the row has no image,
 * and Σ_k weights·keyColumn / total. `shift` is the exp(x − max) to use.
 */
function pointerColumn(shift: (x: tf.Tensor) => tf.Tensor, scores: tf.Tensor, mask: tf.Tensor, hasImage: tf.Tensor, keyColumn: tf.Tensor, masking: 'large' | 'infinite'): tf.Tensor {
  const masked = masking === 'large' ? tf.add(scores, tf.mul(tf.sub(mask, 1), 1e9)) : tf.where(tf.greater(mask, 0), scores, tf.fill(scores.shape, -Infinity));
  const weights = tf.mul(shift(masked), mask);
  const total = tf.add(tf.sum(weights, -1, true), tf.sub(1, hasImage));
  return tf.div(tf.matMul(weights, keyColumn), total);
}

const maxShift = (x: tf.Tensor) => tf.exp(tf.sub(x, tf.max(x, -1, true)));

interface PointerCase {
  batch: number;
  length: number;
  side: number;
  masking: 'large' | 'infinite';
  /** Scales the scores: 30 spreads them over exp's range, as a trained pointer's are. */
  scale: number;
  /**
   * Whether queries before the image see no keys (their mask rows all zeros, as the prompt's tokens
   * before the first image): the pointer masks with −1e9 so that exp(x − max) stays finite there;
   * with −Infinity such a row is NaN, with tfjs's max as with this one.
   */
  rowsWithoutImage: boolean;
}

/**
 * The pointer's masks: row r's image is keys [start, start + side²), start = 1 + r mod 3; queries
 * from its end on see it (hasImage), and those before it see nothing or, without rowsWithoutImage,
 * the image too.
 */
function pointerInputs({ batch, length, side, scale, rowsWithoutImage }: PointerCase, seed: number) {
  const mask = new Float32Array(batch * length * length);
  const hasImage = new Float32Array(batch * length);
  const keyColumn = new Float32Array(batch * length * side);
  for (let row = 0; row < batch; row++) {
    const start = 1 + (row % 3);
    const imageAt = start + side * side;
    for (let key = start; key < imageAt; key++) keyColumn[(row * length + key) * side + ((key - start) % side)] = 1;
    for (let query = rowsWithoutImage ? imageAt : 0; query < length; query++) {
      hasImage[row * length + query] = 1;
      for (let key = start; key < imageAt; key++) mask[(row * length + query) * length + key] = 1;
    }
  }
  return {
    scores: tf.tidy(() => tf.mul(randomTensor([batch, length, length], seed), scale)),
    mask: tf.tensor3d(mask, [batch, length, length]),
    hasImage: tf.tensor3d(hasImage, [batch, length, 1]),
    keyColumn: tf.tensor3d(keyColumn, [batch, length, side]),
    dy: randomTensor([batch, length, side], seed + 1),
  };
}

/** The pointer's column marginal and the gradient of Σ dy·column with respect to the scores. */
function runPointer(shift: (x: tf.Tensor) => tf.Tensor, given: ReturnType<typeof pointerInputs>, masking: PointerCase['masking']): [tf.Tensor, tf.Tensor] {
  const column = (scores: tf.Tensor) => pointerColumn(shift, scores, given.mask, given.hasImage, given.keyColumn, masking);
  return [column(given.scores), tf.grad((scores: tf.Tensor) => tf.sum(tf.mul(column(scores), given.dy)))(given.scores)];
}

describe('expShiftedByMax', () => {
  const pointerCases: PointerCase[] = [
    { batch: 4, length: 24, side: 4, masking: 'large', scale: 1, rowsWithoutImage: true },
    { batch: 3, length: 40, side: 5, masking: 'large', scale: 30, rowsWithoutImage: true },
    { batch: 3, length: 30, side: 4, masking: 'infinite', scale: 30, rowsWithoutImage: false },
  ];
  for (const [index, c] of pointerCases.entries()) {
    it(`gives the grid pointer's marginals float for float, and their gradient within 1e-6 of tfjs's autodiff through the max, without Equal (${c.masking} masking${c.rowsWithoutImage ? ', rows with no image' : ''}, scores ×${c.scale})`, async () => {
      const given = pointerInputs(c, 20 + index);
      const [column, gradient] = runPointer((x) => expShiftedByMax(x, -1), given, c.masking);
      const [expectedColumn, autodiff] = runPointer(maxShift, given, c.masking);
      expect(Array.from(column.dataSync())).toEqual(Array.from(expectedColumn.dataSync()));
      const values = gradient.dataSync();
      expect(values.every(Number.isFinite)).toBe(true);
      expect(largestMagnitude(values)).toBeGreaterThan(0.01);
      expectClose(values, autodiff.dataSync(), 0, 1e-6);
      // Queries with no image get no gradient.
      const noImage = tf.tidy(() => tf.sum(tf.abs(tf.mul(gradient, tf.sub(1, given.hasImage)))));
      expect(noImage.dataSync()[0]).toBe(0);
      expect(await kernelNames(() => runPointer((x) => expShiftedByMax(x, -1), given, c.masking))).not.toContain('Equal');
      expect(await kernelNames(() => runPointer(maxShift, given, c.masking))).toContain('Equal');
      tf.dispose([...Object.values(given), column, gradient, expectedColumn, autodiff, noImage]);
    });
  }

  it("normalised, gives tf.softmax's values within float rounding and its gradient within 1e-6 (axes other than the last too)", () => {
    const x = tf.tidy(() => tf.mul(randomTensor([5, 8, 6], 40), 20));
    const dy = randomTensor([5, 8, 6], 41);
    const softmaxOver = (axis: number, input: tf.Tensor) => {
      const weights = expShiftedByMax(input, axis);
      return tf.div(weights, tf.sum(weights, axis, true));
    };
    for (const axis of [2, 1]) {
      const ours = (input: tf.Tensor) => softmaxOver(axis, input);
      const theirs = (input: tf.Tensor) => (axis === 2 ? tf.softmax(input) : tf.transpose(tf.softmax(tf.transpose(input, [0, 2, 1])), [0, 2, 1]));
      const value = ours(x);
      const expected = theirs(x);
      expectClose(value.dataSync(), expected.dataSync(), 1e-6, 1e-7);
      const gradient = tf.grad((input: tf.Tensor) => tf.sum(tf.mul(ours(input), dy)))(x);
      const autodiff = tf.grad((input: tf.Tensor) => tf.sum(tf.mul(theirs(input), dy)))(x);
      expectClose(gradient.dataSync(), autodiff.dataSync(), 0, 1e-6);
      tf.dispose([value, expected, gradient, autodiff]);
    }
    tf.dispose([x, dy]);
  });

  it('does not leak tensors, data or heap, and keeps only its result', () => {
    const c: PointerCase = { batch: 2, length: 12, side: 2, masking: 'large', scale: 1, rowsWithoutImage: true };
    const given = pointerInputs(c, 50);
    expectNoLeak(() => runPointer((x) => expShiftedByMax(x, -1), given, c.masking));
    const before = tf.memory().numTensors;
    const value = expShiftedByMax(given.scores, -1);
    expect(tf.memory().numTensors).toBe(before + 1);
    tf.dispose([...Object.values(given), value]);
  });
});

describe('smoothMaximum', () => {
  it('is (1/β)·log mean exp(β·x) over the axes: between the max and the max less log(n)/β, and the max as β grows', () => {
    const x = tf.tensor3d([1, 2, 0.5, -1, 3, 2.5, 0, 0, 0, 0, 0, 0], [2, 2, 3]);
    const pooled = smoothMaximum<tf.Tensor>(x, [1, 2], 30);
    expect(pooled.shape).toEqual([2]);
    const rows = [[1, 2, 0.5, -1, 3, 2.5], [0, 0, 0, 0, 0, 0]];
    const expected = rows.map((row) => Math.log(row.reduce((sum, value) => sum + Math.exp(30 * value), 0) / row.length) / 30);
    expectClose(pooled.dataSync(), expected, 0, 1e-6);
    // A flat row pools to itself; the first row is within log(6)/30 of its max, 3.
    expect(pooled.dataSync()[1]).toBeCloseTo(0, 6);
    expect(pooled.dataSync()[0]).toBeGreaterThan(3 - Math.log(6) / 30 - 1e-6);
    expect(pooled.dataSync()[0]).toBeLessThan(3);
    expect(smoothMaximum<tf.Tensor>(x, [1, 2], 1000).dataSync()[0]).toBeCloseTo(3, 2);
    tf.dispose([x, pooled]);
  });
});
