import { InvalidArgumentError } from '@saccade/spec';

/** Which way a wrong numeric answer is off. */
export type NumericDirection = 'too-high' | 'too-low';

const NUMBER = /^[-+]?(?:\d+(?:,\d{3})*(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?%?$/i;

/** A number from an answer such as '12', '-3.5', '1,200', '45%' or '$7'; undefined when it is not one. */
export function parseNumericAnswer(text: string): number | undefined {
  const trimmed = text.trim().replace(/^\$/, '');
  if (!NUMBER.test(trimmed)) return undefined;
  const value = Number(trimmed.replace(/,/g, '').replace(/%$/, ''));
  return Number.isFinite(value) ? value : undefined;
}

/** Whether a numeric answer is above or below the expected number; undefined when either is not a number or they are equal. */
export function numericDirection(answer: string, expected: string | number): NumericDirection | undefined {
  const given = parseNumericAnswer(answer);
  const target = typeof expected === 'number' ? expected : parseNumericAnswer(expected);
  if (given === undefined || target === undefined || given === target) return undefined;
  return given > target ? 'too-high' : 'too-low';
}

/** The hint sentence for a direction, e.g. 'Hint: your answer is too high.' */
export function numericDirectionHint(direction: NumericDirection): string {
  return `Hint: your answer is too ${direction === 'too-high' ? 'high' : 'low'}.`;
}

/** 'You have N attempts remaining.' or, with none after this one, 'This is your LAST attempt.' */
export function attemptsRemainingText(attemptsRemaining: number): string {
  if (!(Number.isSafeInteger(attemptsRemaining) && attemptsRemaining >= 1)) {
    throw new InvalidArgumentError({ argument: 'attemptsRemaining', expected: 'an integer ≥ 1', value: attemptsRemaining });
  }
  return attemptsRemaining === 1
    ? 'This is your LAST attempt.'
    : `You have ${attemptsRemaining} attempts remaining.`;
}

/**
 * The wrong answer, the attempts left and optionally the right answer, from which
 * reflectionFeedback builds its message.
 */
export interface ReflectionFeedbackOptions {
  /** The answer the model gave. */
  answer: string;
  /** Attempts the model still has, counting the next one (≥ 1; 1 means the next is the last). */
  attemptsRemaining: number;
  /** The right answer; when it and `answer` are numbers, a direction hint is added. */
  expected?: string | number;
  /** Add the numeric direction hint (default true). */
  directionHint?: boolean;
}

/**
 * VISTA-Gym's reflection feedback for a wrong answer when attempts remain (REFERENCE §3):
 * "Your answer 'X' is incorrect.", a direction hint for numbers, then "You have N attempts
 * remaining." or "This is your LAST attempt." and an instruction to try again.
 *
 * @example
 * reflectionFeedback({ answer: '12', expected: 10, attemptsRemaining: 2 });
 * // "Your answer '12' is incorrect. Hint: your answer is too high. You have 2 attempts remaining. Please reflect on your reasoning and try again."
 */
export function reflectionFeedback({ answer, attemptsRemaining, expected, directionHint = true }: ReflectionFeedbackOptions): string {
  const parts = [`Your answer '${answer.trim()}' is incorrect.`];
  if (directionHint && expected !== undefined) {
    const direction = numericDirection(answer, expected);
    if (direction !== undefined) parts.push(numericDirectionHint(direction));
  }
  parts.push(attemptsRemainingText(attemptsRemaining));
  parts.push('Please reflect on your reasoning and try again.');
  return parts.join(' ');
}

/** The feedback when the answer could not be read (format error) and a retry is allowed. */
export function formatErrorFeedback({ expectedFormat, attemptsRemaining }: { expectedFormat: string; attemptsRemaining: number }): string {
  return `Your response did not follow the required format: expected ${expectedFormat}. ${attemptsRemainingText(attemptsRemaining)} Please answer again in that format.`;
}
