import { firstAnswer, right, wrong, type AnswerChecker, checkedAnswerChecker } from './answer-checker';
import { checkYesNo } from './generic-checkers';
import { normalizeVqaAnswer, parseYesNo } from './normalize-answer';
import { parseNumber } from './parse-number';

// CLEVR's closed vocabulary and the words models use for it.
const SYNONYMS: Record<string, string> = {
  cubes: 'cube', block: 'cube', blocks: 'cube', box: 'cube', boxes: 'cube',
  spheres: 'sphere', ball: 'sphere', balls: 'sphere',
  cylinders: 'cylinder',
  matte: 'rubber', rubbery: 'rubber',
  metallic: 'metal', shiny: 'metal',
  big: 'large', tiny: 'small',
  grey: 'gray',
};

/** CLEVR answer words in canonical form: `Shiny balls` → `metal sphere`. */
export function normalizeClevrAnswer(text: string): string {
  return normalizeVqaAnswer(text)
    .split(' ')
    .map((word) => SYNONYMS[word] ?? word)
    .join(' ');
}

function checkInteger(prediction: string, expected: number): ReturnType<AnswerChecker> {
  const predicted = parseNumber(prediction);
  if (predicted === undefined || !Number.isInteger(predicted.value)) return wrong(`${JSON.stringify(prediction.slice(0, 40))} is not a whole number`);
  return predicted.value === expected ? right(`${expected}`) : wrong(`${predicted.value}, expected ${expected}`);
}

/**
 * CLEVR: whole numbers exactly (`three` = 3); yes/no; attribute words exactly after mapping
 * synonyms (ball → sphere, block → cube, shiny/metallic → metal, matte → rubber, big → large,
 * tiny → small, plurals to singular).
 */
export const checkClevr: AnswerChecker = checkedAnswerChecker((prediction, target) => {
  const answer = firstAnswer(target.answer);
  const expectedNumber = parseNumber(answer);
  if (expectedNumber !== undefined && Number.isInteger(expectedNumber.value)) return checkInteger(prediction, expectedNumber.value);
  if (parseYesNo(answer) !== undefined) return checkYesNo(prediction, target);
  const expected = normalizeClevrAnswer(answer);
  const predicted = normalizeClevrAnswer(prediction);
  return predicted === expected ? right(`"${expected}"`) : wrong(`"${predicted.slice(0, 40)}", expected "${expected}"`);
});

/** CLEVR-Math: the answer is a whole number, compared exactly; other answers as CLEVR. */
export const checkClevrMath: AnswerChecker = checkedAnswerChecker((prediction, target) => checkClevr(prediction, target));
