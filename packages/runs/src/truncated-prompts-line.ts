import { metricNumber } from './metric-number';

/**
 * An evaluation row's `truncatedPrompts` (the share of turns whose prompt the agent cut to fit the
 * model's context, which drops the chat's start and its first image) as one phrase for progress
 * output, or undefined when no prompt was cut.
 *
 * @example
 * truncatedPromptsLine({ truncatedPrompts: 0.0625 }) // '6.3% of prompts cut to fit the context'
 */
export function truncatedPromptsLine(metrics: Readonly<Record<string, unknown>>): string | undefined {
  const share = metricNumber(metrics, 'truncatedPrompts');
  return share === undefined || share <= 0 ? undefined : `${(share * 100).toFixed(1)}% of prompts cut to fit the context`;
}
