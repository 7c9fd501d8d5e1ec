import { InvalidArgumentError } from '@saccade/spec';
/** A reference answer: one value, or several (e.g. the ten annotators of a VQA question). */
export type AnswerValue = string | number | boolean | readonly (string | number)[];

/** What a checker compares a prediction against: the task's answer and the context it needs. */
export interface AnswerTarget {
  answer: AnswerValue;
  /** The options of a multiple-choice question, in order (option A first). */
  choices?: readonly string[];
  /** The question, for checkers whose tolerance depends on it (angles, measurements). */
  question?: string;
  /** Dataset fields such as `answer_index`, `direct_answers`, `precision`, `tolerance`. */
  metadata?: Record<string, unknown>;
}

/** A checker's verdict on one prediction: right or wrong by the dataset's rule, a graded score, and why. */
export interface AnswerCheck {
  /** The dataset's own accuracy rule says the prediction is right. */
  correct: boolean;
  /** A graded score in [0, 1]: 1/0 for most checkers, ANLS, VQA score or IoU for others. */
  score: number;
  /** Why, in a few words (for logs and trajectories, not for the model). */
  detail: string;
}

/**
 * Scores a prediction (the extracted answer text, untrusted) against a target. Never throws on a
 * prediction; throws `InvalidArgumentError` only for a target it cannot use (`choices` that are not
 * an array of strings, a box that is not four numbers), see `validateAnswerTarget`.
 */
export type AnswerChecker = (prediction: string, target: AnswerTarget) => AnswerCheck;

export const right = (detail: string, score = 1): AnswerCheck => ({ correct: true, score, detail });
export const wrong = (detail: string, score = 0): AnswerCheck => ({ correct: false, score, detail });

/** The reference answers as strings (one for a plain answer, several for annotator lists). */
export function answerStrings(answer: AnswerValue): string[] {
  if (Array.isArray(answer)) return answer.map((value) => String(value));
  if (typeof answer === 'boolean') return [answer ? 'yes' : 'no'];
  return [String(answer)];
}

/** The first reference answer as a string. */
export const firstAnswer = (answer: AnswerValue): string => answerStrings(answer)[0] ?? '';

/** A metadata field under any of its spellings (`answer_index`, `answerIndex`). */
export function metadataField(target: AnswerTarget, ...names: string[]): unknown {
  const metadata = target.metadata;
  if (metadata === undefined || metadata === null) return undefined;
  for (const name of names) if (Object.hasOwn(metadata, name) && metadata[name] !== undefined && metadata[name] !== null) return metadata[name];
  return undefined;
}

const validated = new WeakSet<object>();

/**
 * Checks a target's shape once (a target object already checked is not walked again) and throws
 * `InvalidArgumentError` naming the field, what it expects and what came: `answer` a string,
 * number, boolean or array of strings and numbers; `choices` an array of strings; `question` a
 * string; `metadata` an object. Every built-in checker calls it first.
 */
export function validateAnswerTarget(target: unknown): asserts target is AnswerTarget {
  if (typeof target === 'object' && target !== null && validated.has(target)) return;
  const fail = (argument: string, expected: string, value: unknown): never => {
    throw new InvalidArgumentError({ argument, expected, value });
  };
  if (typeof target !== 'object' || target === null || Array.isArray(target)) return fail('target', 'an object {answer, choices?, question?, metadata?}', target);
  const { answer, choices, question, metadata } = target as Record<string, unknown>;
  if (Array.isArray(answer)) {
    const bad = answer.findIndex((value) => typeof value !== 'string' && typeof value !== 'number');
    if (bad !== -1) fail(`target.answer[${bad}]`, 'a string or a number', answer[bad]);
  } else if (typeof answer !== 'string' && typeof answer !== 'number' && typeof answer !== 'boolean') {
    fail('target.answer', 'a string, a number, a boolean or an array of strings and numbers', answer);
  }
  if (choices !== undefined) {
    if (!Array.isArray(choices)) fail('target.choices', 'an array of strings (the options, A first)', choices);
    const bad = (choices as unknown[]).findIndex((value) => typeof value !== 'string');
    if (bad !== -1) fail(`target.choices[${bad}]`, 'a string', (choices as unknown[])[bad]);
  }
  if (question !== undefined && typeof question !== 'string') fail('target.question', 'a string', question);
  if (metadata !== undefined && metadata !== null && (typeof metadata !== 'object' || Array.isArray(metadata))) fail('target.metadata', 'an object', metadata);
  validated.add(target);
}

/** A checker that validates its target first (`validateAnswerTarget`) and reads the prediction as a string. */
export function checkedAnswerChecker(checker: AnswerChecker): AnswerChecker {
  if ((checker as { [checkedMark]?: true })[checkedMark] === true) return checker;
  const wrapped: AnswerChecker = (prediction, target) => {
    validateAnswerTarget(target);
    return checker(typeof prediction === 'string' ? prediction : String(prediction ?? ''), target);
  };
  Object.defineProperty(wrapped, checkedMark, { value: true });
  return wrapped;
}

const checkedMark = Symbol.for('saccade.core.checkedAnswerChecker');
