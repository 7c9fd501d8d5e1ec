import { InvalidArgumentError } from '@saccade/spec';
import { right, wrong, answerStrings, checkedAnswerChecker, type AnswerChecker } from './answer-checker';
import { checkChartQA, checkFigureQA, checkPlotQA } from './chart-checkers';
import { checkClevr, checkClevrMath } from './clevr-checkers';
import { checkDocVQA, checkInfographicVQA } from './document-checkers';
import { anls } from './edit-distance';
import { checkExactMatch, checkMultipleChoice, checkNumeric, checkYesNo, createSetChecker } from './generic-checkers';
import { checkGeometry3K, checkGeoQA, checkUniGeo } from './geometry-checkers';
import { checkBoxIoU, checkPointInBox } from './grounding-checkers';
import { checkMapQA } from './map-checkers';
import { checkMathVista, checkTabMWP } from './math-checkers';
import { checkAI2D, checkIconQA, checkScienceQA } from './science-checkers';
import { checkAOkvqa, checkVizWiz, createVqaScoreChecker } from './vqa-score-checkers';

/** ANLS as a checker: the score is ANLS, right when it is above 0 (NL below 0.5). */
const checkAnls: AnswerChecker = checkedAnswerChecker((prediction, target) => {
  const score = anls(prediction, answerStrings(target.answer));
  return score > 0 ? right(`ANLS ${score}`, score) : wrong('ANLS 0', score);
});

/** Built-in checkers by display name; later names in a row are aliases. */
const BUILT_IN: [names: string[], checker: AnswerChecker][] = [
  [['ChartQA'], checkChartQA],
  [['PlotQA'], checkPlotQA],
  [['FigureQA'], checkFigureQA],
  [['Geometry3K', 'Geometry3000'], checkGeometry3K],
  [['GeoQA', 'GeoQA+'], checkGeoQA],
  [['UniGeo'], checkUniGeo],
  [['MapQA'], checkMapQA],
  [['DocVQA'], checkDocVQA],
  [['InfographicVQA', 'InfoVQA'], checkInfographicVQA],
  [['ScienceQA'], checkScienceQA],
  [['AI2D'], checkAI2D],
  [['VizWiz'], checkVizWiz],
  [['CLEVR'], checkClevr],
  [['CLEVR-Math'], checkClevrMath],
  [['A-OKVQA'], checkAOkvqa],
  [['TabMWP'], checkTabMWP],
  [['IconQA'], checkIconQA],
  [['MathVista'], checkMathVista],
  // ViGoRL's benchmarks: multiple choice, and clicks inside a box.
  [['V*Bench', 'VStar'], checkMultipleChoice],
  [['BLINK'], checkMultipleChoice],
  [['SAT'], checkMultipleChoice],
  [['ScreenSpot', 'OS-ATLAS'], checkPointInBox],
  // Generic checkers, also picked by a task's answer type.
  [['multiple-choice'], checkMultipleChoice],
  [['yes-no'], checkYesNo],
  [['numeric', 'number'], checkNumeric],
  [['exact', 'text'], checkExactMatch],
  [['set', 'list'], createSetChecker()],
  [['vqa-score'], createVqaScoreChecker()],
  [['anls'], checkAnls],
  [['point-in-box', 'point'], checkPointInBox],
  [['box-iou', 'box'], checkBoxIoU],
];

interface Entry {
  name: string;
  checker: AnswerChecker;
}

/** `CLEVR-Math`, `clevr_math` and `clevrmath` are one key. */
const keyOf = (name: string) => name.toLowerCase().replace(/[^a-z0-9*]/g, '').replace('*', 'star');

// One registry per process, even when several copies of @saccade/core are loaded.
const registryKey = Symbol.for('saccade.core.answerCheckerRegistry');
type GlobalWithRegistry = typeof globalThis & { [registryKey]?: Map<string, Entry> };

function registry(): Map<string, Entry> {
  const global = globalThis as GlobalWithRegistry;
  if (global[registryKey] === undefined) {
    const map = new Map<string, Entry>();
    for (const [names, checker] of BUILT_IN) for (const name of names) map.set(keyOf(name), { name: names[0]!, checker });
    global[registryKey] = map;
  }
  return global[registryKey];
}

/**
 * Adds a checker for a dataset (or replaces one with `override`), so tasks of that dataset are
 * scored with it. Names are matched ignoring case and punctuation.
 */
export function registerAnswerChecker(name: string, checker: AnswerChecker, { override = false }: { override?: boolean } = {}): void {
  if (typeof name !== 'string' || keyOf(name).length === 0) throw new InvalidArgumentError({ argument: 'name', expected: 'a dataset name such as "ChartQA"', value: name });
  if (typeof checker !== 'function') throw new InvalidArgumentError({ argument: 'checker', expected: 'a function (prediction, target) => AnswerCheck', value: checker });
  const existing = registry().get(keyOf(name));
  if (existing !== undefined && !override) {
    throw new InvalidArgumentError({ argument: 'name', expected: `a name not taken (pass {override: true} to replace the checker of ${existing.name})`, value: name });
  }
  // A registered checker gets the same target validation as the built-in ones.
  registry().set(keyOf(name), { name, checker: checkedAnswerChecker(checker) });
}

/** The checker for a dataset or answer type, or `undefined`. Names ignore case and punctuation. */
export function findAnswerChecker(name: string): AnswerChecker | undefined {
  return typeof name === 'string' ? registry().get(keyOf(name))?.checker : undefined;
}

/** The names of the registered checkers (aliases left out), sorted. */
export function listAnswerCheckers(): string[] {
  return [...new Set([...registry().values()].map((entry) => entry.name))].sort((a, b) => a.localeCompare(b));
}

/**
 * The checker for a dataset (`ChartQA`, `clevr-math`, …) or an answer type (`multiple-choice`,
 * `numeric`, …). Throws `InvalidArgumentError` listing the known names for an unknown one.
 *
 * @example
 * getAnswerChecker('ChartQA')('45%', { answer: '0.45' }).correct // true
 */
export function getAnswerChecker(name: string): AnswerChecker {
  const checker = findAnswerChecker(name);
  if (checker === undefined) {
    throw new InvalidArgumentError({ argument: 'dataset', expected: `one of ${listAnswerCheckers().join(', ')}`, value: name });
  }
  return checker;
}
