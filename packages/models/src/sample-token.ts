import type { RandomSource } from './seeded-random';

export interface SampleSettings {
  /** 0 picks the most likely token (greedy). */
  temperature: number;
  /** Nucleus sampling: keep the smallest set of tokens whose probability reaches topP. */
  topP: number;
  /** Ids never sampled (pad, bos, image slots, role tokens). */
  banned: ReadonlySet<number>;
}

export interface SampledToken {
  token: number;
  /** Log-probability under the model's own distribution (temperature 1, no top-p, nothing banned). */
  logProb: number;
}

/** Samples one id from a row of logits (JS, seeded: generation is reproducible). */
export function sampleToken(logits: ArrayLike<number>, settings: SampleSettings, random: RandomSource): SampledToken {
  const size = logits.length;
  let max = -Infinity;
  for (let index = 0; index < size; index++) max = Math.max(max, logits[index] ?? -Infinity);
  let total = 0;
  for (let index = 0; index < size; index++) total += Math.exp((logits[index] ?? 0) - max);
  const logNormaliser = max + Math.log(total);
  const logProbOf = (token: number): number => (logits[token] ?? 0) - logNormaliser;

  const allowed: number[] = [];
  for (let index = 0; index < size; index++) if (!settings.banned.has(index)) allowed.push(index);
  if (settings.temperature <= 0) {
    let best = allowed[0] ?? 0;
    for (const index of allowed) if ((logits[index] ?? 0) > (logits[best] ?? 0)) best = index;
    return { token: best, logProb: logProbOf(best) };
  }
  let scaledMax = -Infinity;
  for (const index of allowed) scaledMax = Math.max(scaledMax, (logits[index] ?? 0) / settings.temperature);
  const weights = allowed.map((index) => Math.exp((logits[index] ?? 0) / settings.temperature - scaledMax));
  let candidates = allowed.map((token, index) => ({ token, weight: weights[index] ?? 0 }));
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
  let threshold = random() * sum;
  for (const candidate of candidates) {
    threshold -= candidate.weight;
    if (threshold < 0) return { token: candidate.token, logProb: logProbOf(candidate.token) };
  }
  const last = candidates[candidates.length - 1]?.token ?? 0;
  return { token: last, logProb: logProbOf(last) };
}
