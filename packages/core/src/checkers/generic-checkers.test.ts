import { InvalidArgumentError } from '@saccade/spec';
import { describe, expect, it } from 'vitest';
import { findAnswerChecker, getAnswerChecker, listAnswerCheckers, registerAnswerChecker } from './answer-checker-registry';
import { expectedChoiceIndex, parseChoiceLetter } from './choices';
import { checkExactMatch, checkMultipleChoice, checkNumeric, checkYesNo, createNumericChecker, createSetChecker } from './generic-checkers';
import { boxIoU, checkBoxIoU, checkPointInBox, parseBox, parsePoint, pointInBox } from './grounding-checkers';

describe('generic checkers', () => {
  it('parseChoiceLetter reads the usual ways of naming an option', () => {
    const read = (text: string) => parseChoiceLetter(text, 4);
    expect(['B', '(B)', 'b', 'B.', '[B]', 'B) Mars', '(B) Mars', 'Option B', 'The answer is (b)', 'answer: b', 'The correct option is B, since…'].map(read)).toEqual(Array(11).fill(1));
    expect(['A cat', 'the answer is a dog', 'E', 'Bob', ''].map(read)).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });
  it('expectedChoiceIndex reads metadata, letters, texts and indices', () => {
    const choices = ['red', 'green', 'blue'];
    expect(expectedChoiceIndex({ answer: 'x', choices, metadata: { answer_index: 2 } })).toBe(2);
    expect(expectedChoiceIndex({ answer: 'x', choices, metadata: { answerLetter: 'B' } })).toBe(1);
    expect(expectedChoiceIndex({ answer: 'Blue', choices })).toBe(2);
    expect(expectedChoiceIndex({ answer: 'C', choices })).toBe(2);
    expect(expectedChoiceIndex({ answer: 0, choices })).toBe(0);
    expect(expectedChoiceIndex({ answer: 5, choices: ['3', '5'] })).toBe(1); // a number equal to an option is that option
    expect(expectedChoiceIndex({ answer: 'purple', choices })).toBeUndefined();
    expect(expectedChoiceIndex({ answer: 'red' })).toBeUndefined();
  });
  it('checkMultipleChoice: letter or text; falls back to exact match without choices', () => {
    const target = { answer: 'green', choices: ['red', 'green', 'blue'] };
    expect(checkMultipleChoice('B', target)).toEqual({ correct: true, score: 1, detail: 'option B' });
    expect(checkMultipleChoice('Green.', target).correct).toBe(true);
    expect(checkMultipleChoice('C', target)).toEqual({ correct: false, score: 0, detail: 'option C, expected B' });
    expect(checkMultipleChoice('purple', target).detail).toBe('"purple" names no option');
    expect(checkMultipleChoice('Green', { answer: 'green' }).correct).toBe(true);
  });
  it('checkYesNo: synonyms on both sides', () => {
    expect(checkYesNo('True', { answer: 'yes' }).correct).toBe(true);
    expect(checkYesNo('Yes, there is.', { answer: true }).correct).toBe(true);
    expect(checkYesNo('incorrect', { answer: 'No' }).correct).toBe(true);
    expect(checkYesNo('maybe', { answer: 'No' })).toEqual({ correct: false, score: 0, detail: '"maybe" is not yes or no' });
  });
  it('numeric with tolerances', () => {
    expect(checkNumeric('0.30000000000000004', { answer: '0.3' }).correct).toBe(true);
    expect(checkNumeric('0.31', { answer: '0.3' }).correct).toBe(false);
    const loose = createNumericChecker({ relativeTolerance: 0.05 });
    expect(loose('10.5', { answer: 10 }).correct).toBe(true);
    expect(loose('10.6', { answer: 10 }).correct).toBe(false);
    const absolute = createNumericChecker({ absoluteTolerance: 0.5, relativeTolerance: 0 });
    expect([absolute('2.5', { answer: 2 }).correct, absolute('2.6', { answer: 2 }).correct]).toEqual([true, false]);
    expect(checkNumeric('many', { answer: 2 })).toEqual({ correct: false, score: 0, detail: '"many" is not a number' });
  });
  it('exact match and sets', () => {
    expect(checkExactMatch(' "New York." ', { answer: ['Boston', 'new york'] }).correct).toBe(true);
    const set = createSetChecker();
    expect(set('b, a and c', { answer: ['a', 'b', 'c'] }).correct).toBe(true);
    expect(set('a, b', { answer: ['a', 'b', 'c'] })).toMatchObject({ correct: false, score: 2 / 3 });
  });
});

describe('points and boxes', () => {
  const box = [10, 20, 30, 40] as const;
  it('pointInBox includes the borders', () => {
    expect([pointInBox({ x: 10, y: 20 }, box), pointInBox({ x: 30, y: 40 }, box), pointInBox({ x: 30.01, y: 40 }, box)]).toEqual([true, true, false]);
  });
  it('parses points, boxes and box centres', () => {
    expect(parsePoint('click at (15, 25)')).toEqual({ x: 15, y: 25 });
    expect(parsePoint('[10, 20, 30, 40]')).toEqual({ x: 20, y: 30 });
    expect(parseBox('[30, 40, 10, 20]')).toEqual([10, 20, 30, 40]);
    expect(parseBox([1, 2, 3])).toBeUndefined();
  });
  it('checkPointInBox and checkBoxIoU', () => {
    expect(checkPointInBox('(30, 40)', { answer: [10, 20, 30, 40] }).correct).toBe(true);
    expect(checkPointInBox('(31, 40)', { answer: '[10, 20, 30, 40]' }).correct).toBe(false);
    expect(checkPointInBox('nowhere', { answer: [10, 20, 30, 40] }).detail).toBe('no point (x, y) in the prediction');
    expect(() => checkPointInBox('(1, 2)', { answer: 'somewhere' })).toThrow(/expected a box \[x1, y1, x2, y2\] of four numbers/);
    expect(boxIoU([0, 0, 10, 10], [5, 0, 15, 10])).toBeCloseTo(50 / 150, 12);
    expect(boxIoU([0, 0, 10, 10], [20, 20, 30, 30])).toBe(0);
    expect(checkBoxIoU('[0, 0, 10, 10]', { answer: [0, 0, 10, 20] })).toMatchObject({ correct: true, score: 0.5 });
    expect(checkBoxIoU('[5, 0, 15, 10]', { answer: [0, 0, 10, 10] }).correct).toBe(false);
  });
});

describe('the checker registry', () => {
  it('finds every REFERENCE dataset by any spelling', () => {
    const datasets = ['ChartQA', 'PlotQA', 'FigureQA', 'Geometry3K', 'GeoQA', 'UniGeo', 'MapQA', 'DocVQA', 'InfographicVQA', 'ScienceQA', 'AI2D', 'VizWiz', 'CLEVR', 'CLEVR-Math', 'A-OKVQA', 'TabMWP', 'IconQA', 'MathVista'];
    for (const name of datasets) {
      expect(findAnswerChecker(name), name).toBeTypeOf('function');
      expect(findAnswerChecker(name.toLowerCase().replace('-', '_'))).toBe(findAnswerChecker(name));
    }
    expect(listAnswerCheckers()).toEqual(expect.arrayContaining([...datasets, 'multiple-choice', 'yes-no', 'numeric', 'point-in-box', 'box-iou']));
    expect(getAnswerChecker('chartqa')('45%', { answer: '0.45' }).correct).toBe(true);
  });
  it('names the known checkers for an unknown dataset', () => {
    let error: unknown;
    try {
      getAnswerChecker('ChartQAA');
    } catch (caught) {
      error = caught;
    }
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/^Invalid argument dataset: expected one of A-OKVQA, AI2D, anls, .* received "ChartQAA"\.$/);
  });
  it('registers a new checker; replacing one needs override', () => {
    registerAnswerChecker('MyDataset', (prediction) => ({ correct: prediction === 'x', score: prediction === 'x' ? 1 : 0, detail: '' }));
    expect(getAnswerChecker('my-dataset')('x', { answer: 'y' }).correct).toBe(true);
    expect(() => registerAnswerChecker('mydataset', checkExactMatch)).toThrow(/pass \{override: true\}/);
    registerAnswerChecker('mydataset', checkExactMatch, { override: true });
    expect(getAnswerChecker('MyDataset')('x', { answer: 'y' }).correct).toBe(false);
  });
  it('no checker throws or hangs on hostile predictions', () => {
    const hostile = ['', ' ', 'x'.repeat(100_000), '((((((((((', '1'.repeat(400), '\u0000\uFFFD', '[1, 2', '$$$', '1e999', '-'.repeat(5000) + '1'];
    const started = performance.now();
    for (const name of listAnswerCheckers()) {
      const checker = getAnswerChecker(name);
      const target = /point|box|screenspot|os-atlas/i.test(name) ? { answer: [0, 0, 1, 1] } : { answer: '12', choices: ['12', '13'] };
      for (const prediction of hostile) {
        const result = checker(prediction, target);
        expect(typeof result.correct, `${name} on ${prediction.slice(0, 10)}`).toBe('boolean');
        expect(result.score).toBeGreaterThanOrEqual(0);
        expect(result.score).toBeLessThanOrEqual(1);
      }
    }
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
