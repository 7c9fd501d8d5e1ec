import { metricNumber } from './metric-number';

/**
 * The sampled evaluation of an evaluation's metrics row (the trainers' `evalSampling`:
 * `sampledSuccess`, `sampledSamples`, `sampledTemperature`) as one phrase for progress output, or
 * undefined when the row has none.
 *
 * @example
 * sampledLine({ sampledSuccess: 0.431, sampledSamples: 4, sampledTemperature: 0.7 })
 * // 'sampled 43.1% (mean@4 at temperature 0.7)'
 */
export function sampledLine(metrics: Readonly<Record<string, unknown>>): string | undefined {
  const number = (key: string): number | undefined => metricNumber(metrics, key);
  const success = number('sampledSuccess');
  if (success === undefined) return undefined;
  const samples = number('sampledSamples');
  const temperature = number('sampledTemperature');
  const how = [samples === undefined ? undefined : `mean@${samples}`, temperature === undefined ? undefined : `at temperature ${temperature}`].filter(Boolean);
  return `sampled ${(success * 100).toFixed(1)}%${how.length > 0 ? ` (${how.join(' ')})` : ''}`;
}
