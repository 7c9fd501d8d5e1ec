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
 * prediction; throws `InvalidArgumentError` only for a target it cannot use (a box that is not four
 * numbers).
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
