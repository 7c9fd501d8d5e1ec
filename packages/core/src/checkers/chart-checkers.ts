import { answerStrings, right, wrong, type AnswerCheck, type AnswerChecker, checkedAnswerChecker } from './answer-checker';
import { checkExactMatch, checkYesNo, compareNumbers } from './generic-checkers';
import { normalizeAnswer } from './normalize-answer';
import { parseNumber, withinRelative, type ParsedNumber } from './parse-number';

const YES_NO_WORDS = /^(?:yes|no|true|false)$/;

/** Text answers: yes/no with synonyms when the reference is yes or no, else exact match. */
export function checkText(prediction: string, answer: string): AnswerCheck {
  const target = { answer };
  return YES_NO_WORDS.test(normalizeAnswer(answer)) ? checkYesNo(prediction, target) : checkExactMatch(prediction, target);
}

/** A fraction written for a percentage, or the other way round: 0.45 ↔ 45, 45% ↔ 0.45. */
function percentForms(predicted: ParsedNumber, expected: ParsedNumber): number[] {
  const forms = [predicted.value];
  const isFraction = (number: ParsedNumber) => !number.integer && Math.abs(number.value) < 1;
  if (predicted.percent || expected.percent || isFraction(predicted)) forms.push(predicted.value * 100);
  if (predicted.percent || expected.percent || isFraction(expected)) forms.push(predicted.value / 100);
  return forms;
}

/**
 * ChartQA's relaxed accuracy: numbers within 5% relative error; years (1900–2100) and other whole
 * numbers ≥ 1000 must be exact; a fraction may stand for a percentage (0.45 ↔ 45 ↔ 45%); yes/no
 * with synonyms; other text exact after normalisation.
 */
export const checkChartQA: AnswerChecker = checkedAnswerChecker((prediction, target) => {
  let last: AnswerCheck = wrong('no reference answer');
  for (const answer of answerStrings(target.answer)) {
    const expected = parseNumber(answer);
    if (expected === undefined) {
      last = checkText(prediction, answer);
    } else {
      const predicted = parseNumber(prediction);
      if (predicted === undefined) {
        last = wrong(`${JSON.stringify(prediction.slice(0, 40))} is not a number`);
      } else if (expected.integer && !expected.percent && Math.abs(expected.value) >= 1000) {
        // Years (1900–2100) and large counts: 2019 vs 2018 is a different answer, not a 0.05% error.
        const kind = expected.value >= 1900 && expected.value <= 2100 ? 'a year' : 'a whole number ≥ 1000';
        last = predicted.value === expected.value ? right(`${answer} exactly (${kind})`) : wrong(`${predicted.value} vs ${expected.value}: ${kind} must be exact`);
      } else {
        const form = percentForms(predicted, expected).find((value) => withinRelative(value, expected.value, 0.05));
        last = compareNumbers(form ?? predicted.value, expected.value, { relativeTolerance: 0.05 });
      }
    }
    if (last.correct) return last;
  }
  return last;
});

/** FigureQA: yes/no (its labels 1 and 0 count as yes and no). */
export const checkFigureQA: AnswerChecker = checkedAnswerChecker((prediction, target) => checkYesNo(prediction, target));

/**
 * PlotQA: whole numbers and years within an absolute 0.5; other numbers within 1% relative error;
 * text as `checkText`.
 */
export const checkPlotQA: AnswerChecker = checkedAnswerChecker((prediction, target) => {
  let last: AnswerCheck = wrong('no reference answer');
  for (const answer of answerStrings(target.answer)) {
    const expected = parseNumber(answer);
    const predicted = parseNumber(prediction);
    if (expected === undefined) last = checkText(prediction, answer);
    else if (predicted === undefined) last = wrong(`${JSON.stringify(prediction.slice(0, 40))} is not a number`);
    else if (expected.integer) {
      const difference = Math.abs(predicted.value - expected.value);
      last = difference < 0.5 ? right(`${predicted.value} within 0.5 of ${expected.value}`) : wrong(`${predicted.value} vs ${expected.value}: off by ${difference} (needs < 0.5)`);
    } else last = compareNumbers(predicted.value, expected.value, { relativeTolerance: 0.01 });
    if (last.correct) return last;
  }
  return last;
});
