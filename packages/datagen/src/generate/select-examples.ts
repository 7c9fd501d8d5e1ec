import { createRng } from '@saccade/core';
import type { SftRecord } from '../sft/sft-file';

/** How many examples selectExamples keeps per task, and the seed of its choice. */
export interface SelectExamplesOptions {
  /** Most examples kept per task (default 8), so that easy tasks do not fill the file. */
  maxPerTask?: number;
  /** Seed of the choice among a task's examples (default 0). */
  seed?: number | string;
}

/** What makes two examples the same: the assistant turns' text, whitespace collapsed. */
export const exampleKey = (record: Pick<SftRecord, 'messages'>): string =>
  record.messages
    .filter((message) => message.role === 'assistant')
    .map((message) => message.content.replace(/\s+/g, ' ').trim())
    .join('\n---\n');

/**
 * Dedupes a task's candidate examples (same assistant text), then keeps at most `maxPerTask` of
 * them, drawn with a seeded shuffle: balance by task.
 */
export function selectExamples(taskId: string, candidates: readonly SftRecord[], { maxPerTask = 8, seed = 0 }: SelectExamplesOptions = {}): SftRecord[] {
  const unique = new Map<string, SftRecord>();
  for (const record of candidates) {
    const key = exampleKey(record);
    if (!unique.has(key)) unique.set(key, record);
  }
  const records = [...unique.values()];
  if (records.length <= maxPerTask) return records;
  return createRng(seed).fork(`select:${taskId}`).shuffle(records).slice(0, maxPerTask);
}
