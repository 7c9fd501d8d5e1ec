import { describe, expect, it } from 'vitest';
import { attemptsRemainingText, formatErrorFeedback, numericDirection, parseNumericAnswer, reflectionFeedback } from './reflection-feedback';

describe('reflection feedback (VISTA-Gym)', () => {
  it('says the answer is wrong, hints the direction and counts attempts', () => {
    expect(reflectionFeedback({ answer: '12', expected: '10', attemptsRemaining: 2 })).toBe(
      "Your answer '12' is incorrect. Hint: your answer is too high. You have 2 attempts remaining. Please reflect on your reasoning and try again.",
    );
    expect(reflectionFeedback({ answer: ' 7.5 ', expected: 10, attemptsRemaining: 1 })).toBe(
      "Your answer '7.5' is incorrect. Hint: your answer is too low. This is your LAST attempt. Please reflect on your reasoning and try again.",
    );
  });

  it('gives no direction for non-numbers or when asked not to', () => {
    expect(reflectionFeedback({ answer: 'cat', expected: 'dog', attemptsRemaining: 2 })).not.toContain('Hint');
    expect(reflectionFeedback({ answer: '3', expected: 4, attemptsRemaining: 2, directionHint: false })).not.toContain('Hint');
  });

  it('reads numbers as VQA answers write them', () => {
    expect(parseNumericAnswer('1,200')).toBe(1200);
    expect(parseNumericAnswer('45%')).toBe(45);
    expect(parseNumericAnswer('$7')).toBe(7);
    expect(parseNumericAnswer('-3.5e2')).toBe(-350);
    expect(parseNumericAnswer('12 apples')).toBeUndefined();
    expect(numericDirection('5', '5.0')).toBeUndefined();
  });

  it('words attempts and format errors', () => {
    expect(attemptsRemainingText(3)).toBe('You have 3 attempts remaining.');
    expect(() => attemptsRemainingText(0)).toThrow(/attemptsRemaining/);
    expect(formatErrorFeedback({ expectedFormat: '<answer>…</answer>', attemptsRemaining: 1 })).toContain('This is your LAST attempt.');
  });
});
