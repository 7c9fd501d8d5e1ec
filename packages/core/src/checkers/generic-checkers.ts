import { answerStrings, firstAnswer, right, wrong, type AnswerCheck, type AnswerChecker, type AnswerTarget, checkedAnswerChecker } from './answer-checker';
import { choiceLetter, expectedChoiceIndex, resolveChoice } from './choices';
import { normalizeAnswer, parseYesNo } from './normalize-answer';
import { parseNumericAnswer } from './parse-number';

const shown = (text: string) => JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);

/** Equal after `normalizeAnswer` (case, whitespace, quotes, final punctuation) to any reference answer. */
export const checkExactMatch: AnswerChecker = checkedAnswerChecker((prediction, target) => {
  const normalized = normalizeAnswer(prediction);
  const hit = answerStrings(target.answer).find((answer) => normalizeAnswer(answer) === normalized);
  return hit !== undefined ? right(`matches ${shown(hit)}`) : wrong(`${shown(prediction)} matches no reference answer`);
});

/** Yes/no with synonyms (`true`, `correct`, `1`…); see `parseYesNo`. */
export const checkYesNo: AnswerChecker = checkedAnswerChecker((prediction, target) => {
  const expected = parseYesNo(typeof target.answer === 'boolean' || typeof target.answer === 'number' ? target.answer : firstAnswer(target.answer));
  if (expected === undefined) return checkExactMatch(prediction, target);
  const predicted = parseYesNo(prediction);
  if (predicted === undefined) return wrong(`${shown(prediction)} is not yes or no`);
  return predicted === expected ? right(`${expected ? 'yes' : 'no'} as expected`) : wrong(`expected ${expected ? 'yes' : 'no'}`);
});

/** How close a number must be to count as right: relative or absolute tolerance, either suffices. */
export interface NumericCheckerOptions {
  /** Allowed |p − t| / |t| (default 1e-6: equal up to float noise). */
  relativeTolerance?: number;
  /** Allowed |p − t| (default 0). Either tolerance suffices. */
  absoluteTolerance?: number;
}

/** Compares two numbers with the given tolerances; the detail says by how much they differ. */
export function compareNumbers(predicted: number, expected: number, { relativeTolerance = 1e-6, absoluteTolerance = 0 }: NumericCheckerOptions = {}): AnswerCheck {
  const difference = Math.abs(predicted - expected);
  const relative = expected === 0 ? (difference === 0 ? 0 : Number.POSITIVE_INFINITY) : difference / Math.abs(expected);
  const ok = difference <= absoluteTolerance + 1e-12 || relative <= relativeTolerance + 1e-12;
  const detail = `${predicted} vs ${expected}: difference ${round(difference)}${Number.isFinite(relative) ? ` (${round(relative * 100)}%)` : ''}`;
  return ok ? right(detail) : wrong(detail);
}

const round = (value: number) => Math.round(value * 1e6) / 1e6;

/** A numeric checker with tolerances; any reference answer may match. Non-numbers never match. */
export function createNumericChecker(options: NumericCheckerOptions = {}): AnswerChecker {
  return checkedAnswerChecker((prediction, target) => {
    const predicted = parseNumericAnswer(prediction);
    if (predicted === undefined) return wrong(`${shown(prediction)} is not a number`);
    let last: AnswerCheck = wrong('the reference answer is not a number');
    for (const answer of answerStrings(target.answer)) {
      const expected = parseNumericAnswer(answer);
      if (expected === undefined) continue;
      last = compareNumbers(predicted, expected, options);
      if (last.correct) return last;
    }
    return last;
  });
}

/** Numbers equal up to float noise (relative 1e-6). */
export const checkNumeric: AnswerChecker = createNumericChecker();

/**
 * Multiple choice: the prediction may name the option by letter (`B`, `(B)`, `Option B`) or by its
 * text; right when it picks the expected option (see `expectedChoiceIndex`). Without choices it
 * falls back to exact match.
 */
export const checkMultipleChoice: AnswerChecker = checkedAnswerChecker((prediction, target) => {
  const choices = target.choices ?? [];
  const expected = expectedChoiceIndex(target);
  if (expected === undefined) return checkExactMatch(prediction, target);
  const picked = resolveChoice(prediction, choices);
  if (picked === undefined) return wrong(`${shown(prediction)} names no option`);
  return picked === expected ? right(`option ${choiceLetter(picked)}`) : wrong(`option ${choiceLetter(picked)}, expected ${choiceLetter(expected)}`);
});

/** Splits a list answer (`a, b and c`, `[a; b]`, an array) into normalised items. */
export function splitList(answer: string | readonly (string | number)[]): string[] {
  const parts = Array.isArray(answer)
    ? answer.map(String)
    : String(answer)
        .replace(/^\s*[[(]|[\])]\s*$/g, '')
        .split(/\s*(?:,|;|\n|\band\b|&)\s*/u);
  return [...new Set(parts.map((part) => normalizeAnswer(part.replace(/^['"]|['"]$/g, ''))).filter((part) => part.length > 0))];
}

/** Jaccard overlap |P ∩ T| / |P ∪ T| of two item sets (1 for two empty sets). */
export function setOverlap(predicted: readonly string[], expected: readonly string[]): number {
  const a = new Set(predicted);
  const b = new Set(expected);
  if (a.size === 0 && b.size === 0) return 1;
  let common = 0;
  for (const item of a) if (b.has(item)) common++;
  return common / (a.size + b.size - common);
}

/** A list answer compared as a set: right when the Jaccard overlap reaches `threshold` (default 1). */
export function createSetChecker({ threshold = 1 }: { threshold?: number } = {}): AnswerChecker {
  return checkedAnswerChecker((prediction, target: AnswerTarget) => {
    const expected = Array.isArray(target.answer) ? splitList(target.answer) : splitList(firstAnswer(target.answer));
    const overlap = setOverlap(splitList(prediction), expected);
    const detail = `set overlap ${round(overlap * 100)}% (needs ${round(threshold * 100)}%)`;
    return overlap >= threshold - 1e-12 ? right(detail, overlap) : wrong(detail, overlap);
  });
}
