import { describe, expect, it } from 'vitest';
import { truncatedPromptsLine } from './truncated-prompts-line';

describe('truncatedPromptsLine', () => {
  it('says the share of prompts cut when any were, and nothing otherwise', () => {
    expect(truncatedPromptsLine({ truncatedPrompts: 0.0625 })).toBe('6.3% of prompts cut to fit the context');
    expect(truncatedPromptsLine({ truncatedPrompts: 0 })).toBeUndefined();
    expect(truncatedPromptsLine({ success: 0.5 })).toBeUndefined();
    expect(truncatedPromptsLine({ truncatedPrompts: Number.NaN })).toBeUndefined();
  });
});
