/**
 * What a stretch of model text or an observation is, by the tags around it: plain text, a tool
 * call, a tool result, the answer, or thinking; each kind gets its colour.
 */
export type HighlightKind = 'text' | 'tool-call' | 'tool-result' | 'answer' | 'think';

/** A stretch of text of one HighlightKind; highlightText splits text into these. */
export interface HighlightSegment {
  text: string;
  kind: HighlightKind;
}

// Tags models and tool wrappers use: Hermes/Qwen-style tool calls, verl-tool style results.
const TAG_KINDS: Record<string, HighlightKind> = {
  tool_call: 'tool-call',
  tool_response: 'tool-result',
  tool_result: 'tool-result',
  observation: 'tool-result',
  answer: 'answer',
  think: 'think',
};
const TAG = /<(\/?)(tool_call|tool_response|tool_result|observation|answer|think)>/g;

/**
 * Splits model text or an observation into runs to colour: tool calls, tool results, answers and
 * reasoning. Never throws on malformed text: an unclosed tag runs to the end, a stray closing tag
 * stays plain text.
 */
export function highlightText(text: string): HighlightSegment[] {
  const segments: HighlightSegment[] = [];
  const push = (part: string, kind: HighlightKind): void => {
    if (part === '') return;
    const last = segments.at(-1);
    if (last && last.kind === kind) last.text += part;
    else segments.push({ text: part, kind });
  };
  let open: { name: string; kind: HighlightKind } | undefined;
  let cursor = 0;
  for (const match of text.matchAll(TAG)) {
    const [tag, closing, name] = match as unknown as [string, string, string];
    const index = match.index;
    if (!closing && open === undefined) {
      push(text.slice(cursor, index), 'text');
      open = { name, kind: TAG_KINDS[name]! };
      cursor = index;
    } else if (closing && open?.name === name) {
      push(text.slice(cursor, index + tag.length), open.kind);
      open = undefined;
      cursor = index + tag.length;
    }
  }
  push(text.slice(cursor), open?.kind ?? 'text');
  return segments;
}
