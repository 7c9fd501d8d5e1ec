const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** What `parseJsonSafely` returns: the value, or why the text is not JSON (it never throws). */
export type JsonParseResult = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * `JSON.parse` for untrusted text: never throws, drops `__proto__`, `constructor` and `prototype`
 * keys at every depth (so the value can be spread or merged without polluting prototypes) and
 * rejects text longer than `maxLength`.
 */
export function parseJsonSafely(text: string, maxLength = 100_000): JsonParseResult {
  if (text.length > maxLength) {
    return { ok: false, error: `expected JSON of at most ${maxLength} characters, received ${text.length}` };
  }
  try {
    const value: unknown = JSON.parse(text, (key, nested: unknown) => (FORBIDDEN_KEYS.has(key) ? undefined : nested));
    return { ok: true, value };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
