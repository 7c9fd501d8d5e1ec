import { describe, expect, test } from 'vitest';
import type { EnvInfo } from './env-info';
import { formatCorrectOf } from './env-info';

describe('formatCorrectOf', () => {
  test('reads metrics.format_correct, the one spelling', () => {
    const info: EnvInfo = { rewardTerms: { format: 0.5 }, metrics: { format_correct: false, action_is_valid: false, success: false } };
    expect(formatCorrectOf(info)).toBe(false);
    expect(formatCorrectOf({ metrics: { format_correct: true } })).toBe(true);
  });

  test('reads the top-level formatCorrect of trajectories stored before, and prefers metrics where both are', () => {
    // A grid turn as stored before the spelling moved into metrics.
    expect(formatCorrectOf({ metrics: { action_is_valid: true, success: false }, formatCorrect: true, isFormatRewarded: true })).toBe(true);
    expect(formatCorrectOf({ formatCorrect: false })).toBe(false);
    expect(formatCorrectOf({ metrics: { format_correct: false }, formatCorrect: true })).toBe(false);
  });

  test('is undefined where a turn says nothing about its format, or says it in another type', () => {
    expect(formatCorrectOf(undefined)).toBeUndefined();
    expect(formatCorrectOf({ toolCallCount: 1, toolCalls: [{ name: 'zoom', ok: true }] })).toBeUndefined();
    expect(formatCorrectOf({ metrics: { format_correct: 1 } })).toBeUndefined();
    expect(formatCorrectOf({ metrics: null, formatCorrect: 'yes' })).toBeUndefined();
  });
});
