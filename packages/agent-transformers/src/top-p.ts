/**
 * Nucleus (top-p) filtering of one row of logits, in place: keeps the fewest most likely tokens
 * whose probabilities add up to at least `topP` (at least one token) and sets the others to
 * -Infinity. transformers.js 4.x parses `top_p` but does not apply it (its TopPLogitsWarper is a
 * TODO), so the agent applies it itself after the temperature.
 */
export function applyTopP(logits: Float32Array, topP: number): Float32Array {
  if (topP >= 1 || logits.length === 0) return logits;
  let max = -Infinity;
  for (const value of logits) if (value > max) max = value;
  const weights = Float64Array.from(logits, (value) => Math.exp(value - max));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const order = Array.from(logits.keys()).sort((a, b) => weights[b]! - weights[a]!);
  let cumulative = 0;
  let kept = 0;
  while (kept < order.length) {
    cumulative += weights[order[kept]!]! / total;
    kept++;
    if (cumulative >= topP) break;
  }
  for (const index of order.slice(kept)) logits[index] = -Infinity;
  return logits;
}

/** Applies `applyTopP` to every row of a [batch, vocabulary] logits buffer. */
export function applyTopPRows(data: Float32Array, vocabulary: number, topP: number): void {
  for (let offset = 0; offset < data.length; offset += vocabulary) applyTopP(data.subarray(offset, offset + vocabulary), topP);
}
