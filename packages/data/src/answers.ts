import { choiceLetter, parseNumber, type AnswerType } from '@saccade/core';
import type { RecordFields } from './record-fields';

/**
 * The answer type of a single answer as written: yes/no words (and booleans) are `yes-no`, a
 * number (`45`, `3.5%`, `1,234`, `3/4`) is `number`, anything else `text`.
 */
export function inferAnswerType(answer: string | number | boolean): AnswerType {
  if (typeof answer === 'boolean') return 'yes-no';
  if (typeof answer === 'number') return 'number';
  const text = answer.trim();
  if (/^(yes|no)\.?$/i.test(text)) return 'yes-no';
  return parseNumber(text) !== undefined ? 'number' : 'text';
}

/** The fields of a multiple-choice task: the option's text as the answer, its letter and index in metadata (VISTA's convention). */
export interface MultipleChoice {
  choices: string[];
  answer: string;
  answerType: 'multiple-choice';
  metadata: { answer_letter: string; answer_index: number };
}

/**
 * A multiple-choice answer from the right option's 0-based index; `field` names the source field
 * that held the index, for the message when it is out of range.
 */
export function multipleChoice(fields: RecordFields, choices: string[], index: number, field: string): MultipleChoice {
  if (choices.length < 2) fields.fail(field, 'a question with at least 2 options', choices);
  if (!Number.isInteger(index) || index < 0 || index >= choices.length) fields.fail(field, `the index of one of the ${choices.length} options (0 to ${choices.length - 1})`);
  return { choices, answer: choices[index]!, answerType: 'multiple-choice', metadata: { answer_letter: choiceLetter(index), answer_index: index } };
}

/** The 0-based index of an option letter (`B`, `(B)`, `B.`), or undefined. */
export function letterIndex(text: string, count: number): number | undefined {
  const match = /^\(?([A-Za-z])\)?\.?$/.exec(text.trim());
  if (match === null) return undefined;
  const index = match[1]!.toUpperCase().charCodeAt(0) - 65;
  return index >= 0 && index < count ? index : undefined;
}

/** The index of the option whose text is `answer` (trimmed, case-insensitive), or undefined. */
export function optionIndex(choices: readonly string[], answer: string): number | undefined {
  const wanted = answer.trim().toLowerCase();
  const index = choices.findIndex((choice) => choice.trim().toLowerCase() === wanted);
  return index < 0 ? undefined : index;
}
