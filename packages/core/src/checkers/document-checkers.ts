import { answerStrings, right, wrong, type AnswerChecker, checkedAnswerChecker } from './answer-checker';
import { anls, editDistance } from './edit-distance';
import { normalizeAnswer } from './normalize-answer';
import { parseNumber, withinRelative } from './parse-number';
import { sameDate } from './parse-date';

/**
 * DocVQA and InfographicVQA. `score` is ANLS (threshold 0.5), the datasets' standard metric;
 * `correct` follows VISTA-Gym: numbers within 1% relative error, the same date in another
 * notation, or text within an edit distance of 2 (for references of 5 characters or more, so that
 * `1` and `7` stay different).
 */
export function createDocumentVqaChecker({ anlsThreshold = 0.5 }: { anlsThreshold?: number } = {}): AnswerChecker {
  return checkedAnswerChecker((prediction, target) => {
    const answers = answerStrings(target.answer);
    const score = anls(prediction, answers, anlsThreshold);
    const predicted = normalizeAnswer(prediction);
    const predictedNumber = parseNumber(prediction);
    for (const answer of answers) {
      const expectedNumber = parseNumber(answer);
      if (expectedNumber !== undefined && predictedNumber !== undefined) {
        if (withinRelative(predictedNumber.value, expectedNumber.value, 0.01)) return right(`${predictedNumber.value} within 1% of ${answer}`, score);
        continue;
      }
      if (sameDate(prediction, answer)) return right(`the same date as ${answer}`, score);
      const expected = normalizeAnswer(answer);
      if (predicted === expected) return right(`matches ${JSON.stringify(answer)}`, score);
      if (expected.length >= 5 && editDistance(predicted, expected, 2) <= 2) return right(`within 2 edits of ${JSON.stringify(answer)}`, score);
    }
    return wrong(`ANLS ${Math.round(score * 1e4) / 1e4}; no reference within 1%, the same date or 2 edits`, score);
  });
}

/** DocVQA's checker: ANLS as the score; right for a number within 1 %, the same date, the same normalised text, or within 2 edits of a reference of 5 characters or more. */
export const checkDocVQA: AnswerChecker = createDocumentVqaChecker();
/** InfographicVQA's checker: the same rule as DocVQA's. */
export const checkInfographicVQA: AnswerChecker = createDocumentVqaChecker();
