/** How repetitive a response is, and VISTA-R1's penalty for it. */
export interface RepetitionReport {
  level: 'none' | 'mild' | 'moderate' | 'severe';
  /** R_rep of the VISTA-R1 paper: 0, −1.5, −2 or −3. */
  penalty: 0 | -1.5 | -2 | -3;
  /** How often the most repeated sentence (3 words or more) occurs. */
  sentenceRepeats: number;
  /** 1 − distinct / total word 4-grams (0 for texts under 20 words). */
  duplicateNgramRatio: number;
  /** The longest stretch of characters that repeats a unit of 1–20 characters (a loop like `abcabcabc…`). */
  loopLength: number;
}

const MAX_LENGTH = 200_000;

function longestLoop(text: string): number {
  let longest = 0;
  for (let period = 1; period <= 20; period++) {
    let run = 0;
    for (let i = 0; i + period < text.length; i++) {
      if (text.charCodeAt(i) === text.charCodeAt(i + period)) {
        run++;
        continue;
      }
      if (run + period > longest && text.slice(i - run, i - run + period).trim().length > 0) longest = run + period;
      run = 0;
    }
    if (run + period > longest && run > 0 && text.slice(text.length - period - run, text.length - run).trim().length > 0) longest = run + period;
  }
  return longest;
}

/**
 * A repetition detector for VISTA-R1's R_rep ∈ {−3, −2, −1.5, 0}. The paper does not publish its
 * detector; these thresholds are Saccade's:
 * - severe (−3): a character loop of 200+ characters, a sentence 5+ times, or ≥ 50% duplicate 4-grams;
 * - moderate (−2): a sentence 3+ times or ≥ 30% duplicate 4-grams;
 * - mild (−1.5): a sentence of 8+ words twice or ≥ 15% duplicate 4-grams.
 * Linear in the text (the first 200,000 characters are read).
 */
export function detectRepetition(text: string): RepetitionReport {
  const value = typeof text === 'string' ? text.slice(0, MAX_LENGTH) : '';
  const sentenceCounts = new Map<string, number>();
  let sentenceRepeats = 0;
  let longSentenceRepeated = false;
  for (const sentence of value.toLowerCase().split(/[.!?\n]+/)) {
    const words = sentence.match(/\S+/g);
    if (words === null || words.length < 3) continue;
    const key = words.join(' ');
    const count = (sentenceCounts.get(key) ?? 0) + 1;
    sentenceCounts.set(key, count);
    sentenceRepeats = Math.max(sentenceRepeats, count);
    if (count >= 2 && words.length >= 8) longSentenceRepeated = true;
  }
  const words = value.toLowerCase().match(/\S+/g) ?? [];
  let duplicateNgramRatio = 0;
  if (words.length >= 20) {
    const grams = new Set<string>();
    const total = words.length - 3;
    for (let i = 0; i < total; i++) grams.add(`${words[i]} ${words[i + 1]} ${words[i + 2]} ${words[i + 3]}`);
    duplicateNgramRatio = 1 - grams.size / total;
  }
  const loopLength = longestLoop(value);
  const report = { sentenceRepeats, duplicateNgramRatio, loopLength };
  if (loopLength >= 200 || sentenceRepeats >= 5 || duplicateNgramRatio >= 0.5) return { level: 'severe', penalty: -3, ...report };
  if (sentenceRepeats >= 3 || duplicateNgramRatio >= 0.3) return { level: 'moderate', penalty: -2, ...report };
  if (longSentenceRepeated || duplicateNgramRatio >= 0.15) return { level: 'mild', penalty: -1.5, ...report };
  return { level: 'none', penalty: 0, ...report };
}
