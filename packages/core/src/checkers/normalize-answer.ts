import { memoizeLong } from './memoize-long';
/** Predictions longer than this are compared as they are cut here: no real answer is this long. */
export const MAX_ANSWER_LENGTH = 10_000;

/**
 * Normalises an answer for exact comparison: Unicode NFKC, lower case, surrounding quotes,
 * brackets and final punctuation removed, whitespace collapsed.
 *
 * @example
 * normalizeAnswer('  "Blue Whale." ') // 'blue whale'
 */
export function normalizeAnswer(text: string): string {
  return normalizeAnswerCached(text);
}

function normalizeAnswerUncached(text: string): string {
  let value = String(text).slice(0, MAX_ANSWER_LENGTH).normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
  // Peel quotes, a trailing full stop and the like, a few layers deep ("'Paris.'").
  for (let layer = 0; layer < 3; layer++) {
    const before = value;
    value = value.replace(/[.!?,;:]+$/u, '').trim();
    if (/^(["'`*]).*\1$/su.test(value) && value.length >= 2) value = value.slice(1, -1).trim();
    if (value === before) break;
  }
  return value;
}

const NUMBER_WORDS: Record<string, string> = {
  none: '0', zero: '0', one: '1', two: '2', three: '3', four: '4', five: '5', six: '6', seven: '7', eight: '8', nine: '9', ten: '10',
  eleven: '11', twelve: '12', thirteen: '13', fourteen: '14', fifteen: '15', sixteen: '16', seventeen: '17', eighteen: '18',
  nineteen: '19', twenty: '20',
};

/** The integer a number word stands for (`'three'` → 3), zero to twenty. */
export function numberWordValue(word: string): number | undefined {
  const digits = NUMBER_WORDS[word.trim().toLowerCase()];
  return digits === undefined || word.trim().toLowerCase() === 'none' ? undefined : Number(digits);
}

const ARTICLES = new Set(['a', 'an', 'the']);
const CONTRACTIONS: Record<string, string> = {
  dont: "don't", doesnt: "doesn't", isnt: "isn't", arent: "aren't", cant: "can't", wont: "won't", didnt: "didn't", wasnt: "wasn't",
};

/**
 * The VQA evaluation's answer normalisation: lower case, punctuation removed (a comma between digits
 * too, so `1,000` → `1000`; a decimal point kept), number words to digits, articles dropped,
 * common contractions restored.
 *
 * @example
 * normalizeVqaAnswer('Two dogs!') // '2 dogs'
 */
export function normalizeVqaAnswer(text: string): string {
  return normalizeVqaAnswerCached(text);
}

function normalizeVqaAnswerUncached(text: string): string {
  const lower = String(text).slice(0, MAX_ANSWER_LENGTH).normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
  const noPunctuation = lower
    .replace(/(\d),(\d)/g, '$1$2')
    .replace(/(?<!\d)\.(?!\d)/g, ' ')
    .replace(/[;/[\]"{}()=+\\_\-><@`,?!*#%^&$~|:]/g, ' ')
    .replace(/'(?!t\b)/g, ' ');
  const words: string[] = [];
  for (const word of noPunctuation.split(' ')) {
    if (word.length === 0 || ARTICLES.has(word)) continue;
    words.push(Object.hasOwn(NUMBER_WORDS, word) && word !== 'none' ? NUMBER_WORDS[word]! : (CONTRACTIONS[word] ?? word));
  }
  return words.join(' ');
}

const YES = new Set(['yes', 'y', 'true', 'correct', 'right', 'yeah', 'yep']);
const NO = new Set(['no', 'n', 'false', 'incorrect', 'wrong', 'nope']);

/**
 * Reads a yes/no answer: `yes`/`true`/`correct`/… or `no`/`false`/`incorrect`/… as the first word
 * ("Yes, it is." counts as yes), and `1`/`0` when they are the whole answer (FigureQA writes labels
 * as 1 and 0). `undefined` for anything else.
 */
export function parseYesNo(text: string | number | boolean): boolean | undefined {
  return parseYesNoCached(text);
}

function parseYesNoUncached(text: string | number | boolean): boolean | undefined {
  if (typeof text === 'boolean') return text;
  const value = normalizeAnswer(String(text));
  if (value === '1') return true;
  if (value === '0') return false;
  const first = /^[a-z]+/.exec(value)?.[0];
  if (first === undefined) return undefined;
  if (YES.has(first)) return true;
  if (NO.has(first)) return false;
  return undefined;
}

/** Case-insensitive whole-word search (`\b` semantics, any characters in `needle` taken literally). */
export function containsWord(haystack: string, needle: string): boolean {
  const word = String(needle).trim().toLowerCase();
  if (word.length === 0) return false;
  // A plain search, not a RegExp built from the needle: linear, and no stack overflow for a long one.
  const text = lowerCased(String(haystack));
  const boundedStart = isWordCharacter(word.charCodeAt(0));
  const boundedEnd = isWordCharacter(word.charCodeAt(word.length - 1));
  for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + 1)) {
    if (boundedStart && at > 0 && isWordCharacter(text.charCodeAt(at - 1))) continue;
    if (boundedEnd && isWordCharacter(text.charCodeAt(at + word.length))) continue;
    return true;
  }
  return false;
}

/** `\w`: ASCII letters, digits and `_`. */
const isWordCharacter = (code: number): boolean => (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;

// Keyed by the caller's string (one prediction, many needles), cut and lower-cased once.
const lowerCased = memoizeLong((text: string) => text.slice(0, MAX_ANSWER_LENGTH).toLowerCase());

// Long inputs are remembered: a checker parses one prediction against many references.
const normalizeAnswerCached = memoizeLong(normalizeAnswerUncached);

// Long inputs are remembered: a checker parses one prediction against many references.
const normalizeVqaAnswerCached = memoizeLong(normalizeVqaAnswerUncached);

// Long inputs are remembered: a checker parses one prediction against many references.
const parseYesNoCached = memoizeLong(parseYesNoUncached);
