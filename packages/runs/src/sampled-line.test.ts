import { describe, expect, it } from 'vitest';
import { sampledLine } from './sampled-line';

describe('sampledLine', () => {
  it('names the sampled success with its samples and temperature, and nothing without it', () => {
    expect(sampledLine({ success: 0.5, sampledSuccess: 0.43125, sampledSamples: 4, sampledTemperature: 0.7 })).toBe('sampled 43.1% (mean@4 at temperature 0.7)');
    expect(sampledLine({ sampledSuccess: 1 })).toBe('sampled 100.0%');
    expect(sampledLine({ success: 0.5 })).toBeUndefined();
    expect(sampledLine({ sampledSuccess: Number.NaN })).toBeUndefined();
  });
});
