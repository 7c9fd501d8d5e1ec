/** One tag found by `scanTags`. */
export interface TagToken {
  name: string;
  closing: boolean;
  /** Index of `<`. */
  start: number;
  /** Index just after `>`. */
  end: number;
}

const patterns = new Map<string, RegExp>();

function tagPattern(names: readonly string[]): RegExp {
  const key = names.join('|');
  let pattern = patterns.get(key);
  if (pattern === undefined) {
    const escaped = names.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    pattern = new RegExp(`<(/?)(${escaped.join('|')})>`, 'g');
    patterns.set(key, pattern);
  }
  return pattern;
}

/**
 * Finds the first `maxTokens` `<name>` and `</name>` tags of the given names, in order, in one
 * pass. The pattern is an alternation of fixed words with no nested quantifiers, so it cannot
 * backtrack: linear time on any text. Other tags and stray `<` are text.
 */
export function scanTags(text: string, names: readonly string[], maxTokens = Number.POSITIVE_INFINITY): TagToken[] {
  const pattern = tagPattern(names);
  pattern.lastIndex = 0;
  const tokens: TagToken[] = [];
  while (tokens.length < maxTokens) {
    const match = pattern.exec(text);
    if (match === null) break;
    tokens.push({ name: match[2]!, closing: match[1] === '/', start: match.index, end: match.index + match[0].length });
  }
  pattern.lastIndex = 0;
  return tokens;
}

const isWhitespace = (code: number): boolean =>
  code === 32 || code === 9 || code === 10 || code === 13 || code === 12 || code === 11 || code === 0xa0 || code === 0xfeff;

/** Whether `text.slice(start, end)` is all whitespace, without copying it. */
export function isBlank(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (!isWhitespace(text.charCodeAt(i))) return false;
  return true;
}

/**
 * The content of the first complete `<tag>…</tag>` pair, trimmed (lenient: text around it is
 * ignored). `undefined` when there is none.
 */
export function extractTagContent(text: string, tag: string): string | undefined {
  const open = `<${tag}>`;
  const start = text.indexOf(open);
  if (start === -1) return undefined;
  const end = text.indexOf(`</${tag}>`, start + open.length);
  if (end === -1) return undefined;
  return text.slice(start + open.length, end).trim();
}
