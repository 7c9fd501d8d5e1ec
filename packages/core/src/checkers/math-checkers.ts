import { answerStrings, firstAnswer, metadataField, right, wrong, type AnswerCheck, type AnswerChecker, type AnswerTarget, checkedAnswerChecker } from './answer-checker';
import { checkText } from './chart-checkers';
import { checkMultipleChoice, compareNumbers } from './generic-checkers';
import { parseNumber, parseNumericAnswer } from './parse-number';

/**
 * TabMWP: fractions by value (`3/4` = `0.75`) within 0.001; whole numbers within an absolute
 * 0.001; decimals within an absolute 0.01; other numbers (percentages, scientific notation) within
 * 1% relative error; text as `checkText` (yes/no synonyms, else exact); options by letter or text.
 */
export const checkTabMWP: AnswerChecker = checkedAnswerChecker((prediction, target) => {
  if (target.choices !== undefined && target.choices.length > 0) return checkMultipleChoice(prediction, target);
  let last: AnswerCheck = wrong('no reference answer');
  for (const answer of answerStrings(target.answer)) {
    const expected = parseNumber(answer);
    if (expected === undefined) last = checkText(prediction, answer);
    else {
      const predicted = parseNumericAnswer(prediction);
      if (predicted === undefined) last = wrong(`${JSON.stringify(prediction.slice(0, 40))} is not a number`);
      else if (expected.fraction || (expected.integer && !expected.percent)) {
        last = Math.abs(predicted - expected.value) < 0.001 ? right(`${predicted} within 0.001 of ${answer}`) : wrong(`${predicted} vs ${answer}: needs to be within 0.001`);
      } else if (!expected.percent && !expected.scientific) {
        last = compareNumbers(predicted, expected.value, { absoluteTolerance: 0.01, relativeTolerance: 0 });
      } else last = compareNumbers(predicted, expected.value, { relativeTolerance: 0.01 });
    }
    if (last.correct) return last;
  }
  return last;
});

const textOf = (target: AnswerTarget) =>
  [target.question, ...['subject', 'domain', 'category', 'task', 'context', 'skills'].map((name) => metadataField(target, name))]
    .flat()
    .filter((value): value is string => typeof value === 'string')
    .join(' ');

/**
 * MathVista's relative tolerance: `metadata.tolerance` when given; 1% for physics questions, 5% for
 * measurements (a ruler, "measure", "how long/tall/wide"); 0.1% otherwise.
 */
export function mathVistaTolerance(target: AnswerTarget): number {
  const tolerance = metadataField(target, 'tolerance');
  if (typeof tolerance === 'number' && Number.isFinite(tolerance) && tolerance >= 0) return tolerance;
  const text = textOf(target);
  if (/physic/i.test(text)) return 0.01;
  if (/\bmeasur|\bruler\b|\bhow (?:long|tall|wide|high)\b/i.test(text)) return 0.05;
  return 0.001;
}

function parseNumberList(text: string): number[] | undefined {
  const inner = /^\s*\[(.*)\]\s*$/su.exec(text.slice(0, 2000))?.[1];
  if (inner === undefined) return undefined;
  const values = inner.split(',').map((part) => parseNumericAnswer(part.trim()));
  return values.every((value): value is number => value !== undefined) ? values : undefined;
}

/**
 * MathVista: multiple-choice questions by letter or option text; free-form numbers (fractions,
 * scientific notation and simple expressions allowed) within `mathVistaTolerance`, or equal once
 * rounded to `metadata.precision` decimals; lists `[a, b]` element by element; text exact.
 */
export const checkMathVista: AnswerChecker = checkedAnswerChecker((prediction, target) => {
  if (target.choices !== undefined && target.choices.length > 0) return checkMultipleChoice(prediction, target);
  const answer = firstAnswer(target.answer);
  const tolerance = mathVistaTolerance(target);
  const expectedList = parseNumberList(answer);
  if (expectedList !== undefined) {
    const predictedList = parseNumberList(prediction);
    const same = predictedList?.length === expectedList.length && predictedList.every((value, index) => compareNumbers(value, expectedList[index]!, { relativeTolerance: tolerance }).correct);
    return same ? right('the same list') : wrong(`expected the list ${answer}`);
  }
  const expected = parseNumericAnswer(answer);
  if (expected === undefined) return checkText(prediction, answer);
  const predicted = parseNumericAnswer(prediction);
  if (predicted === undefined) return wrong(`${JSON.stringify(prediction.slice(0, 40))} is not a number`);
  const precision = metadataField(target, 'precision');
  if (typeof precision === 'number' && Number.isInteger(precision) && precision >= 0 && precision <= 10) {
    if (Number(predicted.toFixed(precision)) === Number(expected.toFixed(precision))) return right(`${predicted} rounds to ${expected.toFixed(precision)}`);
  }
  return compareNumbers(predicted, expected, { relativeTolerance: tolerance });
});
