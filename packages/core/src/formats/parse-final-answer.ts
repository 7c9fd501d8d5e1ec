/** The answer `parseFinalAnswer` found in a response, and which form it was written in. */
export interface FinalAnswer {
  answer: string;
  /** Where it came from: `<answer>…</answer>`, `## FINAL_ANSWER:` or `Answer:`. */
  source: 'answer-tag' | 'final-answer-prefix' | 'answer-prefix';
}

const isLetter = (code: number): boolean => (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;

/**
 * Lower-cases A–Z only, so that every index in the result is the same index in `text`.
 * `toLowerCase()` can lengthen a string (`'İ'` becomes two code units), which would shift the slice.
 */
export const asciiLowerCase = (text: string): string => text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());

/** The rest of the line after `start`, or the next non-empty line when that is empty. */
function lineAfter(text: string, start: number): string {
  let lineEnd = text.indexOf('\n', start);
  if (lineEnd === -1) lineEnd = text.length;
  const line = text.slice(start, lineEnd).trim();
  if (line.length > 0 || lineEnd === text.length) return line;
  let next = lineEnd + 1;
  while (next < text.length) {
    let end = text.indexOf('\n', next);
    if (end === -1) end = text.length;
    const candidate = text.slice(next, end).trim();
    if (candidate.length > 0) return candidate;
    next = end + 1;
  }
  return '';
}

/**
 * Extracts a VQA answer the way VISTA-Gym accepts it, trying in order: the last complete
 * `<answer>…</answer>`, the last `## FINAL_ANSWER:` line and the last `Answer:` line (both
 * prefixes case-insensitive). Returns `undefined` when none gives a non-empty answer.
 *
 * @example
 * parseFinalAnswer('The bars add up.\n## FINAL_ANSWER: 42') // { answer: '42', source: 'final-answer-prefix' }
 */
export function parseFinalAnswer(text: string, { maxLength = 1_000_000 }: { maxLength?: number } = {}): FinalAnswer | undefined {
  if (typeof text !== 'string') return undefined;
  const source = text.length > maxLength ? text.slice(text.length - maxLength) : text;

  const close = source.lastIndexOf('</answer>');
  if (close !== -1) {
    const open = source.lastIndexOf('<answer>', close);
    if (open !== -1) {
      const answer = source.slice(open + '<answer>'.length, close).trim();
      if (answer.length > 0) return { answer, source: 'answer-tag' };
    }
  }
  const lower = asciiLowerCase(source);
  const finalPrefix = '## final_answer:';
  const finalIndex = lower.lastIndexOf(finalPrefix);
  if (finalIndex !== -1) {
    const answer = lineAfter(source, finalIndex + finalPrefix.length);
    if (answer.length > 0) return { answer, source: 'final-answer-prefix' };
  }
  let answerIndex = lower.lastIndexOf('answer:');
  // Look at the last 100 occurrences at most: hostile text may hold millions inside words.
  for (let tries = 0; answerIndex !== -1 && tries < 100; tries++) {
    if (answerIndex === 0 || !isLetter(lower.charCodeAt(answerIndex - 1))) {
      const answer = lineAfter(source, answerIndex + 'answer:'.length);
      if (answer.length > 0) return { answer, source: 'answer-prefix' };
      return undefined;
    }
    answerIndex = answerIndex === 0 ? -1 : lower.lastIndexOf('answer:', answerIndex - 1);
  }
  return undefined;
}
