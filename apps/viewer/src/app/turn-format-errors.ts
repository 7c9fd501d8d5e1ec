import { formatCorrectOf, type Turn } from '@saccade/spec';
import type { ResponsePart } from './response-parts';

/**
 * Why a turn is flagged as a format error, one reason a line (none: the turn kept its format). The
 * format flag is read with spec's `formatCorrectOf`, so episodes stored before `metrics.format_correct`
 * was the one spelling (the grid envs' top-level `formatCorrect`) are flagged alike; a numeric 0
 * (metrics averaged or sent by a Python env) counts as false too.
 */
export function turnFormatErrors(turn: Pick<Turn, 'info' | 'finishReason'>, parts: readonly ResponsePart[]): string[] {
  const metrics = (turn.info.metrics ?? {}) as Record<string, unknown>;
  const errors: string[] = [];
  if (turn.info.valid === false) errors.push('the env marked this action invalid');
  if (metrics.action_is_valid === false || metrics.action_is_valid === 0) errors.push('action_is_valid is false');
  if (formatCorrectOf(turn.info) === false || metrics.format_correct === 0) errors.push('format_correct is false');
  if (turn.finishReason === 'length') errors.push('the response hit the length limit (no end token)');
  if (parts.some((part) => part.kind === 'unclosed')) errors.push('a tag is opened but never closed');
  return errors;
}
