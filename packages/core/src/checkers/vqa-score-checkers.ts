import { answerStrings, metadataField, right, wrong, type AnswerChecker, type AnswerTarget, checkedAnswerChecker } from './answer-checker';
import { expectedChoiceIndex, resolveChoice } from './choices';
import { checkMultipleChoice } from './generic-checkers';
import { normalizeVqaAnswer } from './normalize-answer';

/** The annotators' answers: `metadata.direct_answers` (A-OKVQA) when given, else the answer list. */
function humanAnswers(target: AnswerTarget): string[] {
  const direct = metadataField(target, 'direct_answers', 'directAnswers');
  if (Array.isArray(direct) && direct.length > 0) return direct.map(String);
  return answerStrings(target.answer);
}

/** The VQA score min(#humans who gave the answer / 3, 1), with the VQA normalisation. */
export function vqaScore(prediction: string, humans: readonly string[], normalize: (text: string) => string = normalizeVqaAnswer): number {
  const predicted = normalize(prediction);
  const matches = humans.filter((answer) => normalize(answer) === predicted).length;
  return Math.min(matches / 3, 1);
}

/** The open-ended VQA score; right when it reaches `threshold` (default 0.67, as VISTA-Gym). */
export function createVqaScoreChecker({ threshold = 0.67 }: { threshold?: number } = {}): AnswerChecker {
  return checkedAnswerChecker((prediction, target) => {
    const score = vqaScore(prediction, humanAnswers(target));
    const detail = `VQA score ${Math.round(score * 1e4) / 1e4} = min(${Math.round(score * 3)}/3, 1) (needs ${threshold})`;
    return score >= threshold ? right(detail, score) : wrong(detail, score);
  });
}

/**
 * A-OKVQA: with choices, a prediction that names an option (letter or text) is scored as multiple
 * choice; otherwise the open-ended VQA score against `metadata.direct_answers` (or an answer list),
 * right at min(n/3, 1) ≥ 0.67. As written, that threshold needs three matching annotators: two give
 * 0.667.
 */
export function createAOkvqaChecker({ threshold = 0.67 }: { threshold?: number } = {}): AnswerChecker {
  const openEnded = createVqaScoreChecker({ threshold });
  return checkedAnswerChecker((prediction, target) => {
    if (target.choices !== undefined && expectedChoiceIndex(target) !== undefined && resolveChoice(prediction, target.choices) !== undefined) {
      return checkMultipleChoice(prediction, target);
    }
    return openEnded(prediction, target);
  });
}

/** A-OKVQA's checker with the default 0.67 threshold (see {@link createAOkvqaChecker}). */
export const checkAOkvqa: AnswerChecker = createAOkvqaChecker();

const UNANSWERABLE =
  /\b(?:unanswerable|unsuitable|unreadable|cannot (?:be )?(?:answer|determin|tell|see|read|identif)|can(?:'|no)t (?:answer|determin|tell|see|read|identif)|unable to (?:answer|determin|tell|see|read|identif)|impossible to (?:answer|determin|tell)|not (?:possible to|enough information|visible|clear)|too blurry)/i;

const vizWizNormalize = (text: string) => (UNANSWERABLE.test(text.slice(0, 2000)) ? 'unanswerable' : normalizeVqaAnswer(text));

/**
 * VizWiz: right when the prediction matches any annotator's answer (VQA normalisation); phrases
 * such as "unanswerable", "cannot tell", "unable to determine", "not enough information" count as
 * the answer `unanswerable` (and annotators' `unsuitable` too). `score` is the VQA score.
 */
export const checkVizWiz: AnswerChecker = checkedAnswerChecker((prediction, target) => {
  const humans = humanAnswers(target);
  const predicted = vizWizNormalize(prediction);
  const matches = humans.filter((answer) => vizWizNormalize(answer) === predicted).length;
  const score = Math.min(matches / 3, 1);
  const detail = `${matches} of ${humans.length} annotators said ${JSON.stringify(predicted.slice(0, 40))}`;
  return matches > 0 ? right(detail, score) : wrong(detail, score);
});
