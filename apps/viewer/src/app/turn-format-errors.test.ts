import { describe, expect, it } from 'vitest';
import { responseParts } from './response-parts';
import { turnFormatErrors } from './turn-format-errors';

describe('turnFormatErrors', () => {
  it('flags format_correct false in metrics, and the top-level formatCorrect of episodes stored before it', () => {
    const parts = responseParts('<answer>left</answer>');
    expect(turnFormatErrors({ info: { metrics: { format_correct: false } } }, parts)).toEqual(['format_correct is false']);
    expect(turnFormatErrors({ info: { formatCorrect: false, valid: false } }, parts)).toEqual(['the env marked this action invalid', 'format_correct is false']);
    expect(turnFormatErrors({ info: { metrics: { format_correct: 0, action_is_valid: 0 } } }, parts)).toEqual(['action_is_valid is false', 'format_correct is false']);
    // The current spelling wins over the old one.
    expect(turnFormatErrors({ info: { metrics: { format_correct: true }, formatCorrect: false } }, parts)).toEqual([]);
    expect(turnFormatErrors({ info: { formatCorrect: true } }, parts)).toEqual([]);
  });

  it('flags a response cut at the length limit and a tag never closed', () => {
    expect(turnFormatErrors({ info: {}, finishReason: 'length' }, responseParts('<think>cut off here'))).toEqual([
      'the response hit the length limit (no end token)',
      'a tag is opened but never closed',
    ]);
  });
});
