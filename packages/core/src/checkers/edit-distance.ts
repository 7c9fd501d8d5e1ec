import { memoizeLong } from './memoize-long';

/** Edit distances look at this many characters of each side at most: answers are short, the cost is quadratic. */
export const EDIT_DISTANCE_MAX_LENGTH = 2_000;

/**
 * Levenshtein distance (insertions, deletions, substitutions cost 1), over Unicode code points,
 * of the first `EDIT_DISTANCE_MAX_LENGTH` characters of each side. With `limit`, stops early and
 * returns `limit + 1` once the distance must exceed it.
 */
export function editDistance(a: string, b: string, limit = Number.POSITIVE_INFINITY): number {
  const left = codePoints(a);
  const right = codePoints(b);
  if (Math.abs(left.length - right.length) > limit) return limit + 1;
  if (left.length === 0) return right.length;
  if (right.length === 0) return left.length;
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  let current = new Array<number>(right.length + 1).fill(0);
  for (let i = 1; i <= left.length; i++) {
    current[0] = i;
    let rowMinimum = i;
    for (let j = 1; j <= right.length; j++) {
      const cost = left[i - 1] === right[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (current[j]! < rowMinimum) rowMinimum = current[j]!;
    }
    if (rowMinimum > limit) return limit + 1;
    [previous, current] = [current, previous];
  }
  return previous[right.length]!;
}

// One prediction is compared with every reference: its code points are split once.
const codePoints = memoizeLong((text: string): readonly string[] => [...text.slice(0, EDIT_DISTANCE_MAX_LENGTH)]);

const anlsNormalize = (text: string) => text.slice(0, EDIT_DISTANCE_MAX_LENGTH * 2).toLowerCase().replace(/\s+/g, ' ').trim().slice(0, EDIT_DISTANCE_MAX_LENGTH);

/**
 * ANLS, the DocVQA / InfographicVQA metric: for each reference, NL = edit distance / the longer
 * length (after lower-casing and collapsing whitespace); the score is 1 − NL when NL < threshold
 * (0.5), else 0; the best over the references counts. Texts are cut at `EDIT_DISTANCE_MAX_LENGTH`.
 *
 * @example
 * anls('abcx', ['abcd']) // 0.75;  anls('abxy', ['abcd']) // 0 (NL = 0.5 is not below 0.5)
 */
export function anls(prediction: string, answers: readonly string[], threshold = 0.5): number {
  const predicted = anlsNormalize(prediction);
  const predictedLength = codePoints(predicted).length;
  let best = 0;
  for (const answer of answers) {
    const expected = anlsNormalize(answer);
    const expectedLength = codePoints(expected).length;
    const length = Math.max(predictedLength, expectedLength);
    if (length === 0) {
      best = 1;
      continue;
    }
    // Distances of threshold·length or more score 0, so stop computing there.
    const limit = Math.ceil(threshold * length);
    const distance = editDistance(predicted, expected, limit);
    const normalized = distance / length;
    if (normalized < threshold) best = Math.max(best, 1 - normalized);
  }
  return best;
}
