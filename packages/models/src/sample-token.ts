import type { RandomSource } from './seeded-random';
import type { Tokenizer } from './tokenizer';

/**
 * The ids generation never samples: padding, unknown, `<bos>`, image slots and role tokens. One
 * list for the sampler and the trainer, so that both read the same distribution.
 */
export function bannedTokenIds(tokenizer: Tokenizer): number[] {
  return [tokenizer.padId, tokenizer.unknownId, tokenizer.bosId, tokenizer.imagePadId, tokenizer.systemId, tokenizer.userId, tokenizer.assistantId];
}

/** How sampleToken draws: temperature, top-p, and the ids it never draws. */
export interface SampleSettings {
  /** 0 picks the most likely token (greedy). */
  temperature: number;
  /** Nucleus sampling: keep the smallest set of tokens whose probability reaches topP. */
  topP: number;
  /** Ids never sampled (pad, bos, image slots, role tokens). */
  banned: ReadonlySet<number>;
}

/** The id sampleToken drew and its log-probability under the distribution it was drawn from. */
export interface SampledToken {
  token: number;
  /**
   * Log-probability under the distribution the token was drawn from: the logits divided by the
   * temperature (1 when greedy), banned ids left out, renormalised over the top-p nucleus when
   * topP < 1. A trainer recomputes it with `logProbsAndValues(…, { sampling })`.
   */
  logProb: number;
}

/** Samples one id from a row of logits (JS, seeded: generation is reproducible). */
export function sampleToken(logits: ArrayLike<number>, settings: SampleSettings, random: RandomSource): SampledToken {
  const size = logits.length;
  const allowed: number[] = [];
  for (let index = 0; index < size; index++) if (!settings.banned.has(index)) allowed.push(index);
  // The distribution sampled from; greedy picks the mode of temperature 1's.
  const temperature = settings.temperature > 0 ? settings.temperature : 1;
  let scaledMax = -Infinity;
  for (const index of allowed) scaledMax = Math.max(scaledMax, (logits[index] ?? 0) / temperature);
  // In log space: exp of a very unlikely token's shifted logit underflows to 0.
  let candidates = allowed.map((token) => {
    const shifted = (logits[token] ?? 0) / temperature - scaledMax;
    return { token, shifted, weight: Math.exp(shifted) };
  });
  if (settings.temperature <= 0) {
    let best = candidates[0] ?? { token: 0, shifted: 0, weight: 1 };
    for (const candidate of candidates) if (candidate.shifted > best.shifted) best = candidate;
    const total = candidates.reduce((accumulator, candidate) => accumulator + candidate.weight, 0);
    return { token: best.token, logProb: best.shifted - Math.log(total) };
  }
  if (settings.topP < 1) {
    candidates.sort((a, b) => b.weight - a.weight);
    const sum = candidates.reduce((accumulator, candidate) => accumulator + candidate.weight, 0);
    let cumulative = 0;
    const kept: typeof candidates = [];
    for (const candidate of candidates) {
      kept.push(candidate);
      cumulative += candidate.weight;
      if (cumulative >= settings.topP * sum) break;
    }
    candidates = kept;
  }
  const sum = candidates.reduce((accumulator, candidate) => accumulator + candidate.weight, 0);
  const picked = (candidate: { token: number; shifted: number }): SampledToken => ({ token: candidate.token, logProb: candidate.shifted - Math.log(sum) });
  let threshold = random() * sum;
  for (const candidate of candidates) {
    threshold -= candidate.weight;
    if (threshold < 0) return picked(candidate);
  }
  const last = candidates[candidates.length - 1];
  return last ? picked(last) : { token: 0, logProb: 0 };
}
