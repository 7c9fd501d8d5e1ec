import { describe, expect, test } from 'vitest';
import { lookingLine } from './looking-line';

describe('lookingLine', () => {
  test('calls, invalid share, hit rate and success with and without a hit; nothing without tools', () => {
    expect(lookingLine({ toolCallsPerEpisode: 1.02, invalidCallRate: 0.01, targetHitRate: 0.9, successWithHit: 0.97, successWithoutHit: 0.3 })).toBe(
      'tool calls 1.02/episode (1.0% invalid), crop hit the target in 90.0% (success 97.0% with a hit, 30.0% without)',
    );
    // Every episode hit: no "without"; tasks without a target: no hit part.
    expect(lookingLine({ toolCallsPerEpisode: 1, invalidCallRate: 0, targetHitRate: 1, successWithHit: 1 })).toBe('tool calls 1.00/episode (0.0% invalid), crop hit the target in 100.0% (success 100.0% with a hit)');
    expect(lookingLine({ toolCallsPerEpisode: 0.5, invalidCallRate: 0.5 })).toBe('tool calls 0.50/episode (50.0% invalid)');
    expect(lookingLine({ success: 0.9, episodes: 200 })).toBeUndefined();
  });
});
