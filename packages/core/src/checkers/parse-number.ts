import { memoizeLong } from './memoize-long';
import { evaluateExpression } from './evaluate-expression';
import { numberWordValue } from './normalize-answer';

/** A number read from an answer, with how it was written (tolerance rules depend on it). */
export interface ParsedNumber {
  value: number;
  /** Written with `%`, `percent` or `per cent`; `value` is the number as written (45 for 45%). */
  percent: boolean;
  /** Written as a whole number: no decimal point, fraction or exponent. */
  integer: boolean;
  /** Written as a fraction (`3/4`, `1 1/2`, `\frac{3}{4}`). */
  fraction: boolean;
  /** Written in scientific notation (`1.2e-3`, `1.2 × 10^3`). */
  scientific: boolean;
  /** A unit or word after the number (`cm`, `degrees`, `°`, `million`), lower case; '' when none. */
  unit: string;
}

const DIGITS = String.raw`(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+`;
const UNIT = String.raw`(?:°\s*[cf]?|[a-zµ°'][a-zµ°.²³^/\d]*(?:\s+[a-z][a-z.²³^/\d]*){0,2})`;
// Linear: every part is anchored and separated by a literal or a character class change.
const NUMBER_PATTERN = new RegExp(
  String.raw`^([+-]?)(${DIGITS})(?:\s*e\s*([+-]?\d{1,4})|\s*(?:[x×*·]|\\times|\\cdot)\s*10\s*\^\s*\{?\s*([+-]?\d{1,4})\s*\}?)?\s*(%|\\%|percent|per cent)?\s*(${UNIT})?$`,
  'u',
);
const FRACTION_PATTERN = /^([+-]?)(?:(\d+)\s+)?(\d+)\s*\/\s*(\d+)\s*([a-z°][a-z°\s]{0,20})?$/u;
const LATEX_FRACTION_PATTERN = /^([+-]?)\\d?frac\s*\{\s*([+-]?\d+(?:\.\d+)?)\s*\}\s*\{\s*([+-]?\d+(?:\.\d+)?)\s*\}$/u;
const LEAD_IN = /^(?:about|approximately|approx\.?|around|roughly|nearly|~|≈|[a-z]\s*=)\s*/u;

/** Strips what surrounds a number in answers: `$…$`, `\(…\)`, `\boxed{…}`, `\text{…}` units, a final full stop. */
function clean(text: string): string {
  let value = text
    .normalize('NFKC')
    .replace(/[\u2212\u2012\u2013\u2014\uFE63\uFF0D]/g, '-')
    .replace(/[\u00A0\u2009\u202F]/g, ' ')
    .toLowerCase()
    .trim();
  for (let layer = 0; layer < 3; layer++) {
    const before = value;
    value = value.replace(/\.$/, '').trim();
    if (/^\$[^$]*\$$/.test(value) && value.length >= 2) value = value.slice(1, -1).trim();
    if (value.startsWith('\\(') && value.endsWith('\\)')) value = value.slice(2, -2).trim();
    const boxed = /^\\boxed\s*\{(.*)\}$/su.exec(value);
    if (boxed) value = boxed[1]!.trim();
    value = value.replace(/\\text\s*\{([^{}]*)\}/g, ' $1').replace(/\^\s*\{?\\circ\}?|\\circ/g, '°').replace(/\\?%/g, '%').trim();
    value = value.replace(LEAD_IN, '');
    if (value === before) break;
  }
  // A currency sign after an optional minus: "-$5" is -5.
  return value.replace(/^([+-]?)\s*[$€£¥₹]\s*/u, '$1').replace(/\s*(?:usd|eur|gbp|dollars?)$/u, '').trim();
}

/**
 * Reads an answer that is a single number: `1,234.5`, `-3`, `45%`, `$12`, `12 cm`, `30°`, `3/4`,
 * `1 1/2`, `\frac{3}{4}`, `1.2e-3`, `1.2 × 10^3`, `x = 5`, `three`. Returns `undefined` when the
 * answer is not one number (`5 or 6`, `yes`, `10-20`). Never throws.
 *
 * @example
 * parseNumber('45%') // { value: 45, percent: true, integer: true, … }
 */
export function parseNumber(text: string | number): ParsedNumber | undefined {
  return parseNumberCached(text);
}

function parseNumberUncached(text: string | number): ParsedNumber | undefined {
  if (typeof text === 'number') {
    return Number.isFinite(text) ? { value: text, percent: false, integer: Number.isInteger(text), fraction: false, scientific: false, unit: '' } : undefined;
  }
  if (typeof text !== 'string' || text.length > 200) return undefined;
  const value = clean(text);
  const word = numberWordValue(value);
  if (word !== undefined) return { value: word, percent: false, integer: true, fraction: false, scientific: false, unit: '' };

  const match = NUMBER_PATTERN.exec(value);
  if (match) {
    const [, sign, digits, exponent, powerOfTen, percent, unit] = match;
    const base = Number(digits!.replace(/,/g, ''));
    const power = exponent ?? powerOfTen;
    const number = (sign === '-' ? -1 : 1) * base * (power === undefined ? 1 : 10 ** Number(power));
    if (!Number.isFinite(number)) return undefined;
    return {
      value: number,
      percent: percent !== undefined,
      integer: power === undefined && !digits!.includes('.'),
      fraction: false,
      scientific: power !== undefined,
      unit: (unit ?? '').trim(),
    };
  }
  const fraction = FRACTION_PATTERN.exec(value);
  if (fraction) {
    const [, sign, whole, numerator, denominator, unit] = fraction;
    if (Number(denominator) === 0) return undefined;
    const magnitude = Number(whole ?? 0) + Number(numerator) / Number(denominator);
    return { value: sign === '-' ? -magnitude : magnitude, percent: false, integer: false, fraction: true, scientific: false, unit: (unit ?? '').trim() };
  }
  const latex = LATEX_FRACTION_PATTERN.exec(value);
  if (latex) {
    const [, sign, numerator, denominator] = latex;
    if (Number(denominator) === 0) return undefined;
    const magnitude = Number(numerator) / Number(denominator);
    return { value: sign === '-' ? -magnitude : magnitude, percent: false, integer: false, fraction: true, scientific: false, unit: '' };
  }
  return undefined;
}

/**
 * A number from an answer that may also be a small expression, as geometry and math answers are
 * (`2\sqrt{3}`, `4π`, `\frac{\sqrt{3}}{2}`): `parseNumber` first, then `evaluateExpression`.
 */
export function parseNumericAnswer(text: string | number): number | undefined {
  return parseNumericAnswerCached(text);
}

function parseNumericAnswerUncached(text: string | number): number | undefined {
  const parsed = parseNumber(text);
  if (parsed !== undefined) return parsed.value;
  if (typeof text !== 'string') return undefined;
  return evaluateExpression(clean(text).replace(/°$/u, '').trim());
}

/** |a − b| ≤ tolerance · |b| (relative to the reference `b`); exact when `b` is 0. */
export function withinRelative(a: number, b: number, tolerance: number): boolean {
  if (b === 0) return Math.abs(a) <= 1e-12;
  return Math.abs(a - b) <= tolerance * Math.abs(b) + 1e-12;
}

// Long inputs are remembered: a checker parses one prediction against many references.
const parseNumberCached = memoizeLong(parseNumberUncached);

// Long inputs are remembered: a checker parses one prediction against many references.
const parseNumericAnswerCached = memoizeLong(parseNumericAnswerUncached);
