import { metricNumber } from './metric-number';

/**
 * The looking part of an evaluation's metrics row (the trainers' `toolCallsPerEpisode`,
 * `invalidCallRate`, `targetHitRate`, `successWithHit`, `successWithoutHit`) as one line for
 * progress output, or undefined when the episodes had no tools.
 *
 * @example
 * lookingLine({ toolCallsPerEpisode: 1.02, invalidCallRate: 0.01, targetHitRate: 0.9, successWithHit: 0.97, successWithoutHit: 0.3 })
 * // 'tool calls 1.02/episode (1.0% invalid), crop hit the target in 90.0% (success 97.0% with a hit, 30.0% without)'
 */
export function lookingLine(metrics: Readonly<Record<string, unknown>>): string | undefined {
  const number = (key: string): number | undefined => metricNumber(metrics, key);
  const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
  const calls = number('toolCallsPerEpisode');
  if (calls === undefined) return undefined;
  const invalid = number('invalidCallRate');
  let line = `tool calls ${calls.toFixed(2)}/episode${invalid === undefined ? '' : ` (${percent(invalid)} invalid)`}`;
  const hit = number('targetHitRate');
  if (hit !== undefined) {
    const withHit = number('successWithHit');
    const withoutHit = number('successWithoutHit');
    const split = [withHit === undefined ? undefined : `${percent(withHit)} with a hit`, withoutHit === undefined ? undefined : `${percent(withoutHit)} without`].filter(Boolean);
    line += `, crop hit the target in ${percent(hit)}${split.length > 0 ? ` (success ${split.join(', ')})` : ''}`;
  }
  return line;
}
