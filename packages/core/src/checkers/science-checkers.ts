import { answerStrings, right, wrong, type AnswerChecker, checkedAnswerChecker } from './answer-checker';
import { choiceLetter, expectedChoiceIndex, resolveChoice } from './choices';
import { checkExactMatch, checkMultipleChoice } from './generic-checkers';
import { containsWord, normalizeAnswer } from './normalize-answer';
import { parseNumber } from './parse-number';

/** ScienceQA: the choice letter or the choice text; the answer may be the option's index, letter or text. */
export const checkScienceQA: AnswerChecker = checkedAnswerChecker((prediction, target) => checkMultipleChoice(prediction, target));

/** AI2D: as ScienceQA (its `answer` is the option's text, with `metadata.answer_letter` / `answer_index`). */
export const checkAI2D: AnswerChecker = checkedAnswerChecker((prediction, target) => checkMultipleChoice(prediction, target));

/**
 * IconQA: with choices, the option is found by its text, its letter, or, failing both, the one
 * option whose text appears in the prediction as a whole word. Without choices (fill in the
 * blank), equal numbers, equal text, or the answer as a whole word in the prediction.
 */
export const checkIconQA: AnswerChecker = checkedAnswerChecker((prediction, target) => {
  const choices = target.choices ?? [];
  const expected = expectedChoiceIndex(target);
  if (expected !== undefined) {
    let picked = resolveChoice(prediction, choices);
    if (picked === undefined) {
      const mentioned = choices.flatMap((choice, index) => (containsWord(prediction, choice) ? [index] : []));
      if (mentioned.length === 1) picked = mentioned[0];
    }
    if (picked === undefined) return wrong('names no option (or several)');
    return picked === expected ? right(`option ${choiceLetter(picked)}`) : wrong(`option ${choiceLetter(picked)}, expected ${choiceLetter(expected)}`);
  }
  const predictedNumber = parseNumber(prediction);
  for (const answer of answerStrings(target.answer)) {
    const expectedNumber = parseNumber(answer);
    if (expectedNumber !== undefined && predictedNumber !== undefined) {
      if (Math.abs(predictedNumber.value - expectedNumber.value) <= 1e-9 * Math.max(1, Math.abs(expectedNumber.value))) return right(`${answer}`);
      continue;
    }
    if (normalizeAnswer(prediction) === normalizeAnswer(answer)) return right(`matches ${JSON.stringify(answer)}`);
    if (containsWord(prediction, answer)) return right(`contains ${JSON.stringify(answer)} as a word`);
  }
  return checkExactMatch(prediction, target);
});
