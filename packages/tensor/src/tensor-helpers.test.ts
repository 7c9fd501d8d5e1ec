import { beforeAll, describe, expect, it } from 'vitest';
import { entropyFromLogits, gatherLogProbs, initTensor, maskedMean, maskedSum, maskedWhiten, tf } from './index.js';

beforeAll(async () => {
  await initTensor();
});

function values(tensor: tf.Tensor): number[] {
  const result = Array.from(tensor.dataSync());
  tensor.dispose();
  return result;
}

function expectValues(tensor: tf.Tensor, expected: number[], digits = 5): void {
  const actual = values(tensor);
  expect(actual.length).toBe(expected.length);
  actual.forEach((value, index) => expect(value).toBeCloseTo(expected[index] ?? NaN, digits));
}

/** Only the returned tensor survives a helper call. */
function expectOnlyResult(fn: () => tf.Tensor): void {
  const before = tf.memory().numTensors;
  const result = fn();
  expect(tf.memory().numTensors).toBe(before + 1);
  result.dispose();
}

describe('masked helpers (hand-computed values)', () => {
  const x = tf.tensor2d([[1, 2, 3], [4, 5, 6]]);
  const mask = tf.tensor2d([[1, 1, 0], [0, 0, 0]]);

  it('maskedSum sums the masked entries', () => {
    expectValues(maskedSum(x, mask), [3]);
    expectValues(maskedSum(x, mask, { axis: 1 }), [3, 0]);
    expectValues(maskedSum(x, tf.tensor1d([1, 0, 1], 'bool'), { axis: 0 }), [5, 0, 9]);
  });

  it('maskedMean divides by the mask count and gives 0 for an empty row', () => {
    expectValues(maskedMean(x, mask), [1.5]);
    expectValues(maskedMean(x, mask, { axis: 1 }), [1.5, 0]);
    expectValues(maskedMean(x, tf.tensor2d([[1, 0, 1], [1, 1, 1]]), { axis: -1, keepDims: true }), [2, 5]);
  });

  it('maskedWhiten uses the unbiased variance over masked entries (verl)', () => {
    const advantages = tf.tensor1d([1, 2, 3, 100]);
    const valid = tf.tensor1d([1, 1, 1, 0]);
    // mean 2, unbiased variance (1 + 0 + 1) / 2 = 1.
    expectValues(maskedWhiten(advantages, valid), [-1, 0, 1, 98], 4);
    expectValues(maskedWhiten(advantages, valid, { shiftMean: false }), [1, 2, 3, 100], 4);
    // mean 2.5, unbiased variance 5/3 over [1, 2, 3, 4].
    const scale = 1 / Math.sqrt(5 / 3 + 1e-8);
    expectValues(maskedWhiten(tf.tensor2d([[1, 2], [3, 4]]), tf.ones([2, 2])), [-1.5 * scale, -0.5 * scale, 0.5 * scale, 1.5 * scale]);
  });

  it('gatherLogProbs picks log-softmax at each token', () => {
    const logits = tf.tensor3d([[[0, 0], [0, Math.log(3)]]]);
    expectValues(gatherLogProbs(logits, tf.tensor2d([[1, 0]], [1, 2], 'int32')), [-Math.log(2), Math.log(0.25)]);
  });

  it('entropyFromLogits gives −Σ p log p', () => {
    const logits = tf.tensor2d([[0, 0, 0, 0], [0, Math.log(3), -1e9, -1e9]]);
    expectValues(entropyFromLogits(logits), [Math.log(4), -(0.25 * Math.log(0.25) + 0.75 * Math.log(0.75))]);
  });

  it('keeps nothing but the result', () => {
    const tokens = tf.tensor1d([0, 2], 'int32');
    expectOnlyResult(() => maskedSum(x, mask));
    expectOnlyResult(() => maskedMean(x, mask, { axis: 1 }));
    expectOnlyResult(() => maskedWhiten(x, mask));
    expectOnlyResult(() => gatherLogProbs(x, tokens));
    expectOnlyResult(() => entropyFromLogits(x));
    tokens.dispose();
  });

  it('gatherLogProbs and entropy are differentiable', () => {
    const logits = tf.tensor2d([[0.5, -1, 2]]);
    const grad = tf.grad((l: tf.Tensor) => tf.sum(gatherLogProbs(l, tf.tensor1d([2], 'int32'))))(logits);
    const probs = tf.softmax(logits).dataSync();
    expectValues(grad, [-(probs[0] ?? 0), -(probs[1] ?? 0), 1 - (probs[2] ?? 0)]);
  });
});
