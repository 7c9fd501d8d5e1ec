/** Where a text first reaches one of the stop strings: the text up to and including it, and which it was. */
export function truncateAtStop(text: string, stop: readonly string[]): { text: string; matched?: string } {
  let best: { end: number; matched: string } | undefined;
  for (const candidate of stop) {
    if (candidate.length === 0) continue;
    const index = text.indexOf(candidate);
    if (index === -1) continue;
    const end = index + candidate.length;
    if (best === undefined || end < best.end) best = { end, matched: candidate };
  }
  return best === undefined ? { text } : { text: text.slice(0, best.end), matched: best.matched };
}

/**
 * What the stopping test needs: where the prompt ends in each row, the stop strings, a decoder, and
 * an abort signal.
 */
export interface StopWatcherOptions {
  /** Tokens of each row that are prompt, not generated (decoder-only models return the prompt too). */
  promptLength: number;
  /** Generation stops once the generated text contains one of these. */
  stop: readonly string[];
  /** Decodes token ids to text (special tokens skipped). */
  decode: (ids: readonly bigint[]) => string;
  /** Stops every row as soon as it aborts. */
  signal?: AbortSignal;
}

/**
 * A stopping test for transformers.js' `generate`: given every row's ids so far, says which rows
 * are done: all once `signal` aborts, and a row whose generated text holds a stop string. Only the
 * last tokens are decoded each step (enough to hold the longest stop string), so a step costs the
 * same however long the answer grows.
 */
export function createStopWatcher({ promptLength, stop, decode, signal }: StopWatcherOptions): (rows: readonly (readonly bigint[])[]) => boolean[] {
  const strings = stop.filter((candidate) => candidate.length > 0);
  // A token decodes to at least one character, except special tokens (skipped) and pieces of a
  // multi-byte character; a margin covers the partial character at the start of the window.
  const window = Math.max(0, ...strings.map((candidate) => candidate.length)) + 8;
  return (rows) =>
    rows.map((ids) => {
      if (signal?.aborted) return true;
      if (strings.length === 0 || ids.length <= promptLength) return false;
      const tail = decode(ids.slice(Math.max(promptLength, ids.length - window)));
      return strings.some((candidate) => tail.includes(candidate));
    });
}
