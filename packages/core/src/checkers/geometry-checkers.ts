import { answerStrings, firstAnswer, right, wrong, type AnswerChecker, checkedAnswerChecker } from './answer-checker';
import { choiceLetter, expectedChoiceIndex, parseChoiceLetter } from './choices';
import { checkExactMatch, checkMultipleChoice, compareNumbers } from './generic-checkers';
import { normalizeAnswer } from './normalize-answer';
import { parseNumericAnswer } from './parse-number';

/** The reference answer as text: the expected option's text when there are choices. */
function expectedText(target: Parameters<AnswerChecker>[1]): { text: string; index: number | undefined } {
  const index = expectedChoiceIndex(target);
  const text = index !== undefined ? target.choices![index]! : firstAnswer(target.answer);
  return { text, index };
}

const isAngleQuestion = (question: string | undefined, answer: string) => /\bangle|∠|°|\bdegrees?\b|\\angle/i.test(`${question ?? ''} ${answer}`);

/**
 * Geometry3K: a letter picks an option; a value is compared with the expected option's value
 * (`2\sqrt{3}` and `4π` are evaluated): within 0.5 for angles (the question or answer speaks of
 * angles or degrees), else within 0.1% relative error.
 */
export const checkGeometry3K: AnswerChecker = checkedAnswerChecker((prediction, target) => {
  const { text, index } = expectedText(target);
  const choices = target.choices ?? [];
  const letter = /^[([]?[A-Za-z][)\]]?[.:]?(?:\s|$)/.test(prediction.trim()) ? parseChoiceLetter(prediction, choices.length) : undefined;
  if (index !== undefined && letter !== undefined) {
    return letter === index ? right(`option ${choiceLetter(letter)}`) : wrong(`option ${choiceLetter(letter)}, expected ${choiceLetter(index)}`);
  }
  const expected = parseNumericAnswer(text);
  const predicted = parseNumericAnswer(prediction);
  if (expected === undefined || predicted === undefined) return checkExactMatch(prediction, { answer: text });
  return isAngleQuestion(target.question, text)
    ? compareNumbers(predicted, expected, { absoluteTolerance: 0.5, relativeTolerance: 0 })
    : compareNumbers(predicted, expected, { relativeTolerance: 0.001 });
});

/** GeoQA: the choice letter A–D (or the option's text); without choices, letters are compared. */
export const checkGeoQA: AnswerChecker = checkedAnswerChecker((prediction, target) => {
  if (target.choices !== undefined && target.choices.length > 0) return checkMultipleChoice(prediction, target);
  const expected = parseChoiceLetter(firstAnswer(target.answer), 4);
  const picked = parseChoiceLetter(prediction, 4);
  if (expected === undefined) return checkExactMatch(prediction, target);
  if (picked === undefined) return wrong('no choice letter A–D');
  return picked === expected ? right(`option ${choiceLetter(picked)}`) : wrong(`option ${choiceLetter(picked)}, expected ${choiceLetter(expected)}`);
});

const OPTION_NUMBER = /^(?:option\s*)?[([]?([1-4])[)\]]?[.:]?$/i;

/**
 * UniGeo: right when the value is within 0.01 (absolute) of the expected option's value, when the
 * text equals the option's text, or when the prediction names the option as 1–4 (or A–D).
 */
export const checkUniGeo: AnswerChecker = checkedAnswerChecker((prediction, target) => {
  const { text, index } = expectedText(target);
  const predicted = parseNumericAnswer(prediction);
  for (const answer of index === undefined ? answerStrings(target.answer) : [text]) {
    const expected = parseNumericAnswer(answer);
    if (predicted !== undefined && expected !== undefined && Math.abs(predicted - expected) < 0.01) return right(`${predicted} within 0.01 of ${expected}`);
    if (normalizeAnswer(prediction) === normalizeAnswer(answer)) return right('the option text');
  }
  if (index !== undefined) {
    const number = OPTION_NUMBER.exec(prediction.trim())?.[1];
    const option = number !== undefined ? Number(number) - 1 : parseChoiceLetter(prediction, target.choices!.length);
    if (option !== undefined) return option === index ? right(`option ${option + 1}`) : wrong(`option ${option + 1}, expected ${index + 1}`);
  }
  return wrong(`${JSON.stringify(prediction.slice(0, 40))} is neither the value ${JSON.stringify(text)} nor option ${index === undefined ? '?' : index + 1}`);
});
