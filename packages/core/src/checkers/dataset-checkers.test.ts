import { describe, expect, it } from 'vitest';
import type { AnswerChecker, AnswerTarget } from './answer-checker';
import { checkChartQA, checkFigureQA, checkPlotQA } from './chart-checkers';
import { checkClevr, checkClevrMath } from './clevr-checkers';
import { checkDocVQA } from './document-checkers';
import { anls, editDistance } from './edit-distance';
import { checkGeometry3K, checkGeoQA, checkUniGeo } from './geometry-checkers';
import { checkMapQA } from './map-checkers';
import { checkMathVista, checkTabMWP, mathVistaTolerance } from './math-checkers';
import { checkAI2D, checkIconQA, checkScienceQA } from './science-checkers';
import { checkAOkvqa, checkVizWiz, createVqaScoreChecker } from './vqa-score-checkers';

/** [prediction, target, correct] rows for one checker. */
function verdicts(checker: AnswerChecker, rows: [string, AnswerTarget, boolean][]) {
  return rows.map(([prediction, target]) => checker(prediction, target).correct);
}
const expected = (rows: [string, AnswerTarget, boolean][]) => rows.map((row) => row[2]);

describe('ChartQA relaxed accuracy', () => {
  const rows: [string, AnswerTarget, boolean][] = [
    ['104', { answer: '100' }, true], // 4% off
    ['105', { answer: '100' }, true], // exactly 5%
    ['106', { answer: '100' }, false],
    ['45%', { answer: '45' }, true],
    ['0.45', { answer: '45' }, true], // a fraction for a percentage
    ['45%', { answer: '0.45' }, true],
    ['45', { answer: '0.45' }, true],
    ['100', { answer: '1' }, false], // whole numbers are not read as percentages
    ['2018', { answer: '2019' }, false], // years exact
    ['2019', { answer: '2019' }, true],
    ['1,050', { answer: '1000' }, false], // whole numbers ≥ 1000 exact
    ['1,000', { answer: '1000' }, true],
    ['1020.5', { answer: '1000.5' }, true], // not a whole number: 2% is fine
    ['$12.3 million', { answer: '12' }, true], // units and currency ignored
    ['True', { answer: 'Yes' }, true],
    ['no', { answer: 'Yes' }, false],
    ['Blue.', { answer: 'blue' }, true],
    ['0', { answer: '0' }, true],
    ['0.01', { answer: '0' }, false],
    ['2019', { answer: ['2018', '2019'] }, true],
  ];
  it('follows the rules row by row', () => expect(verdicts(checkChartQA, rows)).toEqual(expected(rows)));
  it('explains a verdict', () => {
    expect(checkChartQA('106', { answer: '100' })).toEqual({ correct: false, score: 0, detail: '106 vs 100: difference 6 (6%)' });
    expect(checkChartQA('2018', { answer: '2019' }).detail).toBe('2018 vs 2019: a year must be exact');
  });
});

describe('FigureQA and PlotQA', () => {
  it('FigureQA reads labels 1/0 as yes/no', () => {
    expect(verdicts(checkFigureQA, [['Yes', { answer: 1 }, true], ['yes', { answer: '0' }, false], ['No', { answer: 'no' }, true]])).toEqual([true, false, true]);
  });
  const rows: [string, AnswerTarget, boolean][] = [
    ['12.4', { answer: '12' }, true], // integer: abs < 0.5
    ['12.5', { answer: '12' }, false],
    ['2011', { answer: '2011' }, true],
    ['10.1', { answer: '10.05' }, true], // 0.5% off
    ['10.2', { answer: '10.05' }, false], // 1.5% off
    ['Yes', { answer: 'yes' }, true],
  ];
  it('PlotQA: integers within 0.5, floats within 1%', () => expect(verdicts(checkPlotQA, rows)).toEqual(expected(rows)));
});

describe('geometry', () => {
  const choices = ['30', '45', '2\\sqrt{3}', '60'];
  it('Geometry3K: letters, angles within 0.5°, else 0.1%', () => {
    const rows: [string, AnswerTarget, boolean][] = [
      ['B', { answer: 'B', choices }, true],
      ['(C)', { answer: 'B', choices }, false],
      ['45.4', { answer: 'B', choices, question: 'Find m \\angle ABC.' }, true],
      ['45.6', { answer: 'B', choices, question: 'Find m \\angle ABC.' }, false],
      ['45.04', { answer: '45', question: 'Find x.' }, true], // 0.09%
      ['45.1', { answer: '45', question: 'Find x.' }, false], // 0.22%
      ['3.464', { answer: 'C', choices }, true], // 2√3 = 3.4641
      ['2\\sqrt{3}', { answer: '3.4641' }, true],
      ['30°', { answer: '30' }, true],
    ];
    expect(verdicts(checkGeometry3K, rows)).toEqual(expected(rows));
  });
  it('GeoQA: the letter A–D or the option text', () => {
    const rows: [string, AnswerTarget, boolean][] = [
      ['C', { answer: 'C' }, true],
      ['(c)', { answer: 'C' }, true],
      ['Option D', { answer: 'C' }, false],
      ['60°', { answer: 'D', choices: ['30°', '40°', '50°', '60°'] }, true],
      ['B', { answer: '40°', choices: ['30°', '40°', '50°', '60°'] }, true],
      ['Answer: 40°', { answer: 'C' }, false],
    ];
    expect(verdicts(checkGeoQA, rows)).toEqual(expected(rows));
  });
  it('UniGeo: option 1–4, option text, or a value within 0.01', () => {
    const target = { answer: '60', choices: ['30', '60', '90', '120'] };
    const rows: [string, AnswerTarget, boolean][] = [
      ['2', target, true], // option 2
      ['3', target, false],
      ['60.005', target, true],
      ['60.02', target, false],
      ['B', target, true],
      ['2.5', { answer: '2.5' }, true],
      ['2.509', { answer: '2.5' }, true],
      ['2.511', { answer: '2.5' }, false],
    ];
    expect(verdicts(checkUniGeo, rows)).toEqual(expected(rows));
  });
});

describe('MapQA', () => {
  const rows: [string, AnswerTarget, boolean][] = [
    ['Yes', { answer: 'yes' }, true],
    ['TX', { answer: 'Texas' }, true], // postal code
    ['the state of Ohio', { answer: 'Ohio' }, true],
    ['Ohio', { answer: 'Iowa' }, false],
    ['10 to 20', { answer: '10-20' }, true],
    ['10-25', { answer: '10-20' }, false],
    ['1,000-2,000', { answer: '1000 - 2000' }, true],
    ['CA, NY, TX', { answer: ['California', 'New York', 'Texas'] }, true],
    ['California and New York', { answer: 'California, New York, Texas' }, false], // 2/3
    // 9 of 10 states: Jaccard 0.9, enough
    ['al, ak, az, ar, ca, co, ct, de, fl', { answer: 'Alabama, Alaska, Arizona, Arkansas, California, Colorado, Connecticut, Delaware, Florida, Georgia' }, true],
    ['12', { answer: '12' }, true],
  ];
  it('yes/no, entities, ranges and lists as sets', () => expect(verdicts(checkMapQA, rows)).toEqual(expected(rows)));
});

describe('DocVQA / InfographicVQA', () => {
  it('ANLS: 1 − NL below the 0.5 threshold, else 0, best reference', () => {
    expect(anls('abcx', ['abcd'])).toBe(0.75);
    expect(anls('abxy', ['abcd'])).toBe(0); // NL = 0.5 exactly: not below the threshold
    expect(anls('ABCD ', ['xyz', 'abcd'])).toBe(1);
    expect(anls('', [''])).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('kitten', 'sitting', 1)).toBe(2); // stopped early: more than the limit
  });
  it('ANLS stays fast on a huge prediction', () => {
    const started = performance.now();
    expect(anls('x'.repeat(100_000), ['y'.repeat(100_000)])).toBe(0);
    expect(anls('x'.repeat(100_000), ['abc'])).toBe(0);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
  const rows: [string, AnswerTarget, boolean][] = [
    ['1,000', { answer: '1000' }, true],
    ['$1,005', { answer: '1000' }, true], // 0.5%
    ['1,020', { answer: '1000' }, false],
    ['March 12, 2020', { answer: '12/03/2020' }, true],
    ['Jonh Smith', { answer: ['John Smith', 'J. Smith'] }, true], // 2 edits
    ['Jonh Smiht', { answer: 'John Smith' }, false], // 4 edits
    ['7', { answer: '1' }, false],
    ['cat', { answer: 'car' }, false], // short references need an exact match
  ];
  it('is right by number, date or edit distance; the score is ANLS', () => {
    expect(verdicts(checkDocVQA, rows)).toEqual(expected(rows));
    expect(checkDocVQA('Jonh Smith', { answer: 'John Smith' }).score).toBe(0.8);
  });
});

describe('ScienceQA and AI2D', () => {
  const choices = ['Mercury', 'Venus', 'Mars'];
  const rows: [string, AnswerTarget, boolean][] = [
    ['B', { answer: 1, choices }, true], // ScienceQA: the answer is the option's index
    ['venus', { answer: 1, choices }, true],
    ['(B) Venus', { answer: 1, choices }, true],
    ['The answer is (C)', { answer: 1, choices }, false],
    ['A', { answer: 'Mercury', choices, metadata: { answer_letter: 'A', answer_index: 0 } }, true], // AI2D
    ['Option A', { answer: 'Mercury', choices }, true],
    ['D', { answer: 'Mercury', choices }, false], // past the last option
    ['a', { answer: 'Mercury', choices }, true],
    ['A planet', { answer: 'Venus', choices }, false],
  ];
  it('letter ↔ text', () => {
    expect(verdicts(checkScienceQA, rows)).toEqual(expected(rows));
    expect(verdicts(checkAI2D, rows)).toEqual(expected(rows));
  });
  it('an option whose text is a letter matches by text first', () => {
    expect(checkAI2D('C', { answer: 'C', choices: ['A', 'B', 'C'] }).correct).toBe(true);
  });
});

describe('VizWiz and A-OKVQA', () => {
  const humans = ['red', 'red', 'dark red', 'unanswerable', 'red', 'maroon', 'red', 'red', 'red', 'red'];
  it('VizWiz: any annotator; "unanswerable" phrases', () => {
    expect(checkVizWiz('Maroon.', { answer: humans })).toMatchObject({ correct: true, score: 1 / 3 });
    expect(checkVizWiz('Red', { answer: humans })).toMatchObject({ correct: true, score: 1 });
    expect(checkVizWiz('I cannot tell from this blurry photo', { answer: humans })).toMatchObject({ correct: true, score: 1 / 3 });
    expect(checkVizWiz('blue', { answer: humans })).toMatchObject({ correct: false, score: 0 });
    expect(checkVizWiz('unable to determine', { answer: ['unsuitable', 'unsuitable', 'unsuitable'] })).toMatchObject({ correct: true, score: 1 });
  });
  it('VQA score min(#humans/3, 1), right at ≥ 0.67', () => {
    const direct = ['dog', 'dog', 'puppy', 'cat', 'dog', 'dog', 'puppy', 'animal', 'dog', 'canine'];
    const check = createVqaScoreChecker();
    expect(check('Dog', { answer: direct })).toMatchObject({ correct: true, score: 1 });
    expect(check('puppy', { answer: direct })).toMatchObject({ correct: false, score: 2 / 3 }); // 0.667 < 0.67
    expect(check('a canine', { answer: direct })).toMatchObject({ correct: false, score: 1 / 3 });
    expect(createVqaScoreChecker({ threshold: 0.6 })('puppy', { answer: direct }).correct).toBe(true);
  });
  it('A-OKVQA: a named option as multiple choice, else the direct answers', () => {
    const target = { answer: 'dog', choices: ['cat', 'dog', 'bird', 'fish'], metadata: { correct_choice_idx: 1, direct_answers: ['dog', 'dog', 'dog', 'puppy'] } };
    expect(checkAOkvqa('B', target).correct).toBe(true);
    expect(checkAOkvqa('cat', target).correct).toBe(false);
    expect(checkAOkvqa('the dog', target)).toMatchObject({ correct: true, score: 1 });
    expect(checkAOkvqa('puppy', target)).toMatchObject({ correct: false, score: 1 / 3 });
  });
});

describe('CLEVR and CLEVR-Math', () => {
  const rows: [string, AnswerTarget, boolean][] = [
    ['3', { answer: '3' }, true],
    ['three', { answer: '3' }, true],
    ['3.5', { answer: '3' }, false],
    ['ball', { answer: 'sphere' }, true],
    ['Blocks', { answer: 'cube' }, true],
    ['shiny', { answer: 'metal' }, true],
    ['matte', { answer: 'rubber' }, true],
    ['big', { answer: 'large' }, true],
    ['cylinder', { answer: 'sphere' }, false],
    ['yes', { answer: 'yes' }, true],
  ];
  it('CLEVR: synonyms and whole numbers', () => expect(verdicts(checkClevr, rows)).toEqual(expected(rows)));
  it('CLEVR-Math: whole numbers exactly', () => {
    expect(verdicts(checkClevrMath, [['4', { answer: 4 }, true], ['four', { answer: '4' }, true], ['4.0', { answer: '4' }, true], ['5', { answer: '4' }, false]])).toEqual([true, true, true, false]);
  });
});

describe('TabMWP', () => {
  const rows: [string, AnswerTarget, boolean][] = [
    ['0.75', { answer: '3/4' }, true], // a fraction by value
    ['3/4', { answer: '3/4' }, true],
    ['0.7', { answer: '3/4' }, false],
    ['12', { answer: '12' }, true],
    ['12.0005', { answer: '12' }, true], // abs < 0.001
    ['12.002', { answer: '12' }, false],
    ['$3.50', { answer: '3.5' }, true],
    ['3.51', { answer: '3.50' }, true], // abs ≤ 0.01
    ['3.52', { answer: '3.50' }, false],
    ['50.4%', { answer: '50%' }, true], // other numbers: 1%
    ['51%', { answer: '50%' }, false],
    ['Yes', { answer: 'yes' }, true],
    ['B', { answer: 'purple', choices: ['red', 'purple'] }, true],
  ];
  it('fractions, integers, decimals and the rest', () => expect(verdicts(checkTabMWP, rows)).toEqual(expected(rows)));
});

describe('IconQA', () => {
  const choices = ['circle', 'square', 'triangle'];
  const rows: [string, AnswerTarget, boolean][] = [
    ['square', { answer: 'square', choices }, true],
    ['B', { answer: 'square', choices }, true],
    ['It is a square.', { answer: 'square', choices }, true], // word-boundary match
    ['squares or circles', { answer: 'square', choices }, false], // no whole-word option
    ['a circle and a square', { answer: 'square', choices }, false], // two options named
    ['7', { answer: '7' }, true],
    ['There are 7 dots', { answer: '7' }, true],
    ['There are 17 dots', { answer: '7' }, false],
  ];
  it('content, letter or word-boundary match', () => expect(verdicts(checkIconQA, rows)).toEqual(expected(rows)));
});

describe('MathVista', () => {
  it('tolerance 0.1%, 1% for physics, 5% for measurements', () => {
    expect(mathVistaTolerance({ answer: '1', question: 'What is x?' })).toBe(0.001);
    expect(mathVistaTolerance({ answer: '1', metadata: { subject: 'physics' } })).toBe(0.01);
    expect(mathVistaTolerance({ answer: '1', question: 'Move the ruler to measure the length of the nail.' })).toBe(0.05);
    expect(mathVistaTolerance({ answer: '1', metadata: { tolerance: 0.2 } })).toBe(0.2);
  });
  const rows: [string, AnswerTarget, boolean][] = [
    ['100.05', { answer: '100' }, true],
    ['100.2', { answer: '100' }, false],
    ['100.9', { answer: '100', metadata: { subject: 'physics' } }, true],
    ['4.8', { answer: '5', question: 'How long is the nail?' }, true],
    ['0.5', { answer: '1/2' }, true],
    ['1.2e-3', { answer: '0.0012' }, true],
    ['1.2 \\times 10^{-3}', { answer: '0.0012' }, true],
    ['3.14', { answer: '3.1416', metadata: { precision: 2 } }, true], // rounded to 2 decimals
    ['[1, 2.5]', { answer: '[1, 2.5]' }, true],
    ['[1, 2]', { answer: '[1, 2.5]' }, false],
    ['(B) 8', { answer: '8', choices: ['6', '8'] }, true],
    ['Yes', { answer: 'Yes' }, true],
  ];
  it('numbers, fractions, scientific notation, precision, lists, choices', () => expect(verdicts(checkMathVista, rows)).toEqual(expected(rows)));
});
