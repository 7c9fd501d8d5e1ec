import { choiceLetter, expectedChoiceIndex, formatInstruction, parseChoiceLetter, parseNumericAnswer, type AnswerFormat, type VisionQATask } from '@saccade/core';
import { quoteModelText } from '@saccade/spec';

const attemptsLine = (remaining: number) =>
  remaining === 1 ? 'You have 1 attempt remaining. This is your LAST attempt.' : `You have ${remaining} attempts remaining.`;

/** The expected value when the task's answer is one number (the expected option's, for choices). */
function expectedNumber(task: VisionQATask): number | undefined {
  if (task.answerType === 'multiple-choice') {
    const index = expectedChoiceIndex(task);
    return index === undefined ? undefined : parseNumericAnswer(task.choices![index]!);
  }
  if (task.answerType !== 'number' || Array.isArray(task.answer) || typeof task.answer === 'boolean') return undefined;
  return parseNumericAnswer(String(task.answer));
}

/**
 * A hint that does not give the answer away: for numbers, whether the right answer is higher or
 * lower; for options, to consider the others. `undefined` when there is none.
 */
export function directionHint(task: VisionQATask, prediction: string): string | undefined {
  const expected = expectedNumber(task);
  if (task.answerType === 'multiple-choice') {
    const letter = parseChoiceLetter(prediction, task.choices?.length ?? 0);
    if (letter !== undefined) return `Option ${choiceLetter(letter)} is not the right one; consider the other options.`;
  }
  const predicted = parseNumericAnswer(prediction);
  if (expected === undefined || predicted === undefined || predicted === expected) return undefined;
  return `The correct answer is ${expected > predicted ? 'higher' : 'lower'} than ${predicted}.`;
}

/** VISTA-Gym's reflection text after a wrong answer with attempts left. */
export function wrongAnswerFeedback({ task, prediction, remaining, hints, format }: { task: VisionQATask; prediction: string; remaining: number; hints: boolean; format: AnswerFormat }): string {
  const shown = quoteModelText(prediction.length > 200 ? `${prediction.slice(0, 200)}…` : prediction);
  const hint = hints ? directionHint(task, prediction) : undefined;
  return [
    `Your answer '${shown}' is incorrect.`,
    ...(hint === undefined ? [] : [hint]),
    attemptsLine(remaining),
    `Look at the image again, reconsider your reasoning, and answer again. ${formatInstruction(format)}`,
  ].join('\n');
}

/** The text after a response with no readable answer, when a retry is allowed. */
export function formatErrorFeedback({ error, remaining, format }: { error: string; remaining: number; format: AnswerFormat }): string {
  return [`I could not read an answer from your response (${error}).`, attemptsLine(remaining), formatInstruction(format)].join('\n');
}
