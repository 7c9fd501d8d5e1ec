/**
 * Remembers the last few results of `compute` for long strings. A checker compares one prediction
 * with every reference answer; without this a 100 KB prediction and 10,000 answers would be parsed
 * 10,000 times. Short strings are recomputed (cheaper than the lookup). Results must not be mutated.
 */
export function memoizeLong<INPUT, RESULT>(compute: (text: INPUT) => RESULT, { minLength = 64, size = 4 }: { minLength?: number; size?: number } = {}): (text: INPUT) => RESULT {
  const cache = new Map<string, RESULT>();
  return (text) => {
    if (typeof text !== 'string' || text.length < minLength) return compute(text);
    if (cache.has(text)) return cache.get(text) as RESULT;
    const result = compute(text);
    if (cache.size >= size) cache.delete(cache.keys().next().value as string);
    cache.set(text, result);
    return result;
  };
}
