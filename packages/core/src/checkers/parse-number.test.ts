import { describe, expect, it } from 'vitest';
import { evaluateExpression } from './evaluate-expression';
import { normalizeAnswer, normalizeVqaAnswer, parseYesNo } from './normalize-answer';
import { parseDate, sameDate } from './parse-date';
import { parseNumber, parseNumericAnswer } from './parse-number';

describe('parseNumber', () => {
  it.each([
    ['42', 42, { integer: true, percent: false }],
    ['-3.5', -3.5, { integer: false }],
    ['−7', -7, { integer: true }],
    ['1,234.5', 1234.5, { integer: false }],
    ['45%', 45, { percent: true, integer: true }],
    ['45 percent', 45, { percent: true }],
    ['$12', 12, { unit: '' }],
    ['-$5', -5, {}],
    ['12 cm', 12, { unit: 'cm' }],
    ['30°', 30, { unit: '°' }],
    ['30 degrees', 30, { unit: 'degrees' }],
    ['3/4', 0.75, { fraction: true, integer: false }],
    ['1 1/2', 1.5, { fraction: true }],
    ['\\frac{3}{4}', 0.75, { fraction: true }],
    ['1.2e-3', 0.0012, { scientific: true, integer: false }],
    ['1.2 × 10^3', 1200, { scientific: true }],
    ['x = 5', 5, {}],
    ['about 7.', 7, {}],
    ['$45\\%$', 45, { percent: true }],
    ['\\boxed{12}', 12, {}],
    ['three', 3, { integer: true }],
  ])('%s → %d', (text, value, flags) => {
    const parsed = parseNumber(text);
    expect(parsed?.value).toBeCloseTo(value, 12);
    expect(parsed).toMatchObject(flags);
  });

  it.each(['yes', '5 or 6', '10-20', '10 to 20', '1,2', '', 'x'.repeat(300), 'Texas', '3/0'])('%j is not one number', (text) => {
    expect(parseNumber(text)).toBeUndefined();
  });
});

describe('evaluateExpression and parseNumericAnswer', () => {
  it('evaluates the expressions math answers are written in', () => {
    expect(evaluateExpression('2\\sqrt{3}')).toBeCloseTo(2 * Math.sqrt(3), 12);
    expect(evaluateExpression('\\frac{\\sqrt{3}}{2}')).toBeCloseTo(Math.sqrt(3) / 2, 12);
    expect(evaluateExpression('4π')).toBeCloseTo(4 * Math.PI, 12);
    expect(evaluateExpression('2^3 + 1')).toBe(9);
    expect(evaluateExpression('-(1 + 2) * 3')).toBe(-9);
    expect(evaluateExpression('3 \\times 4')).toBe(12);
  });
  it('returns undefined for anything else, without throwing', () => {
    for (const text of ['2 +', 'abc', '((1)', '1/0', '', 'sqrt', '('.repeat(150)]) expect(evaluateExpression(text)).toBeUndefined();
  });
  it('parseNumericAnswer takes numbers, then expressions', () => {
    expect(parseNumericAnswer('12 cm')).toBe(12);
    expect(parseNumericAnswer('$2\\sqrt{2}$')).toBeCloseTo(2 * Math.SQRT2, 12);
    expect(parseNumericAnswer('blue')).toBeUndefined();
  });
});

describe('normalisation', () => {
  it('normalizeAnswer drops case, quotes, whitespace and final punctuation', () => {
    expect(normalizeAnswer('  "Blue   Whale." ')).toBe('blue whale');
    expect(normalizeAnswer("'Paris.'")).toBe('paris');
  });
  it('normalizeVqaAnswer follows the VQA evaluation', () => {
    expect(normalizeVqaAnswer('Two dogs!')).toBe('2 dogs');
    expect(normalizeVqaAnswer('The red car.')).toBe('red car');
    expect(normalizeVqaAnswer('1,000')).toBe('1000');
    expect(normalizeVqaAnswer('3.5')).toBe('3.5');
    expect(normalizeVqaAnswer('dont')).toBe("don't");
  });
  it('parseYesNo reads synonyms, FigureQA labels and a first word', () => {
    expect([parseYesNo('Yes'), parseYesNo('TRUE'), parseYesNo('correct'), parseYesNo('1'), parseYesNo('Yes, it is.')]).toEqual([true, true, true, true, true]);
    expect([parseYesNo('no.'), parseYesNo('False'), parseYesNo('0'), parseYesNo('incorrect')]).toEqual([false, false, false, false]);
    expect([parseYesNo('maybe'), parseYesNo('Not sure'), parseYesNo('10')]).toEqual([undefined, undefined, undefined]);
  });
});

describe('parseDate', () => {
  it('reads common notations, and both readings of 03/12/2020', () => {
    expect(parseDate('2020-03-12')).toEqual(['2020-03-12']);
    expect(parseDate('March 12, 2020')).toEqual(['2020-03-12']);
    expect(parseDate('12th March 2020')).toEqual(['2020-03-12']);
    expect(parseDate('03/12/2020')).toEqual(['2020-03-12', '2020-12-03']);
    expect(parseDate('13/03/20')).toEqual(['2020-03-13']);
    expect(parseDate('Mar. 2020')).toEqual(['2020-03']);
    expect(parseDate('hello')).toEqual([]);
    expect(sameDate('12 March 2020', '03/12/2020')).toBe(true);
    expect(sameDate('12 March 2020', '2020-03-13')).toBe(false);
  });
});
