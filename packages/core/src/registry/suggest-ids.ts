/** Levenshtein distance, case-insensitive, with an early exit above `limit`. */
export function editDistance(a: string, b: string, limit = Number.POSITIVE_INFINITY): number {
  const left = a.toLowerCase();
  const right = b.toLowerCase();
  if (Math.abs(left.length - right.length) > limit) return limit + 1;
  let previous = Array.from({ length: right.length + 1 }, (_, i) => i);
  for (let i = 1; i <= left.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= right.length; j++) {
      const cost = left.charCodeAt(i - 1) === right.charCodeAt(j - 1) ? 0 : 1;
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return limit + 1;
    previous = current;
  }
  return previous[right.length]!;
}

/** The name part of `ns/Name-vN`: `Name`, lowercased. */
const baseName = (id: string): string => (id.split('/').pop() ?? id).replace(/-v\d+$/i, '').toLowerCase();

/** Registered ids close to `id` (typos, missing namespace, other versions), best first, at most 3. */
export function suggestIds(id: string, knownIds: readonly string[]): string[] {
  const target = String(id).slice(0, 200);
  const limit = Math.max(2, Math.floor(target.length / 4));
  const scored: Array<{ id: string; score: number }> = [];
  for (const known of knownIds) {
    const distance = editDistance(target, known, limit);
    if (distance <= limit) scored.push({ id: known, score: distance });
    else if (baseName(known) === baseName(target)) scored.push({ id: known, score: limit + 1 });
  }
  return scored
    .sort((a, b) => a.score - b.score || a.id.localeCompare(b.id))
    .slice(0, 3)
    .map((entry) => entry.id);
}
