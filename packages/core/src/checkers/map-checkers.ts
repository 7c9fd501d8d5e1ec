import { answerStrings, right, wrong, type AnswerCheck, type AnswerChecker, checkedAnswerChecker } from './answer-checker';
import { checkText } from './chart-checkers';
import { compareNumbers, setOverlap, splitList } from './generic-checkers';
import { normalizeAnswer } from './normalize-answer';
import { parseNumber } from './parse-number';

// MapQA asks about US maps: states may be named in full or by postal code.
const STATES =
  'al alabama|ak alaska|az arizona|ar arkansas|ca california|co colorado|ct connecticut|de delaware|fl florida|ga georgia|hi hawaii|id idaho|il illinois|in indiana|ia iowa|ks kansas|ky kentucky|la louisiana|me maine|md maryland|ma massachusetts|mi michigan|mn minnesota|ms mississippi|mo missouri|mt montana|ne nebraska|nv nevada|nh new hampshire|nj new jersey|nm new mexico|ny new york|nc north carolina|nd north dakota|oh ohio|ok oklahoma|or oregon|pa pennsylvania|ri rhode island|sc south carolina|sd south dakota|tn tennessee|tx texas|ut utah|vt vermont|va virginia|wa washington|wv west virginia|wi wisconsin|wy wyoming|dc district of columbia';
const STATE_NAMES = new Map(STATES.split('|').map((entry) => [entry.slice(0, 2), entry.slice(3)] as const));

/** An entity name for comparison: normalised, "the" dropped, a US postal code spelled out. */
export function normalizeEntity(text: string): string {
  const value = normalizeAnswer(text).replace(/^the\s+/, '').replace(/^state of\s+/, '').replace(/[.']/g, '');
  return STATE_NAMES.get(value) ?? value;
}

/** `10-20`, `10 – 20`, `10 to 20`, `[10, 20]` → [10, 20]; undefined when not a range of two numbers. */
export function parseRange(text: string): [number, number] | undefined {
  const trimmed = String(text).slice(0, 200).trim();
  // A comma separates the ends only in brackets: "1,000-2,000" has thousands separators.
  const bracketed = /^[[(].*[\])]$/su.test(trimmed);
  const value = bracketed ? trimmed.slice(1, -1).trim() : trimmed;
  const match = (bracketed ? /^(.+?)\s*(?:-|–|—|\bto\b|,)\s*(.+)$/u : /^(.+?)\s*(?:-|–|—|\bto\b)\s*(.+)$/u).exec(value);
  if (!match) return undefined;
  const low = parseNumber(match[1]!);
  const high = parseNumber(match[2]!);
  return low === undefined || high === undefined ? undefined : [low.value, high.value];
}

const sameNumber = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

function checkOne(prediction: string, answer: string, isList: boolean): AnswerCheck {
  if (/^(?:yes|no)$/.test(normalizeAnswer(answer))) return checkText(prediction, answer);
  const expectedNumber = parseNumber(answer);
  if (expectedNumber !== undefined) {
    const predicted = parseNumber(prediction);
    return predicted === undefined ? wrong('not a number') : compareNumbers(predicted.value, expectedNumber.value);
  }
  const range = parseRange(answer);
  if (range !== undefined) {
    const predicted = parseRange(prediction);
    if (predicted === undefined) return wrong(`expected a range like ${answer}`);
    return sameNumber(predicted[0], range[0]) && sameNumber(predicted[1], range[1]) ? right('the same range') : wrong(`range ${predicted.join('–')}, expected ${range.join('–')}`);
  }
  if (isList) {
    const overlap = setOverlap(splitList(prediction).map(normalizeEntity), splitList(answer).map(normalizeEntity));
    const detail = `set overlap ${Math.round(overlap * 1000) / 10}% (needs 90%)`;
    return overlap >= 0.9 ? right(detail, overlap) : wrong(detail, overlap);
  }
  return normalizeEntity(prediction) === normalizeEntity(answer) ? right('the same entity') : wrong(`${JSON.stringify(prediction.slice(0, 40))} is not ${JSON.stringify(answer)}`);
}

/**
 * MapQA: yes/no; numbers; ranges (`10-20`, `10 to 20`) by their ends; lists (an array answer or
 * text with commas, `and`, `;`) as sets that must overlap ≥ 90% (Jaccard); entities by name, with
 * US states by full name or postal code.
 */
export const checkMapQA: AnswerChecker = checkedAnswerChecker((prediction, target) => {
  if (Array.isArray(target.answer)) return checkOne(prediction, target.answer.join(', '), true);
  let last: AnswerCheck = wrong('no reference answer');
  for (const answer of answerStrings(target.answer)) {
    const isList = parseRange(answer) === undefined && splitList(answer).length > 1;
    last = checkOne(prediction, answer, isList);
    if (last.correct) return last;
  }
  return last;
});
