/** A piece of the model's text: plain text or the content of a known tag. */
export interface ResponsePart {
  kind: 'text' | 'think' | 'answer' | 'tool_call' | 'unclosed';
  text: string;
}

const TAGS = ['think', 'answer', 'tool_call'] as const;

/**
 * Splits a response into its tagged parts (`<think>`, `<answer>`, `<tool_call>`) and the text
 * between them. An opened tag that never closes is an `unclosed` part: a format error to show.
 */
export function responseParts(text: string): ResponsePart[] {
  const parts: ResponsePart[] = [];
  let rest = text;
  while (rest.length > 0) {
    let first: { tag: (typeof TAGS)[number]; at: number } | undefined;
    for (const tag of TAGS) {
      const at = rest.indexOf(`<${tag}>`);
      if (at !== -1 && (first === undefined || at < first.at)) first = { tag, at };
    }
    if (first === undefined) {
      parts.push({ kind: 'text', text: rest });
      break;
    }
    if (first.at > 0) parts.push({ kind: 'text', text: rest.slice(0, first.at) });
    const open = `<${first.tag}>`;
    const close = `</${first.tag}>`;
    const end = rest.indexOf(close, first.at + open.length);
    if (end === -1) {
      parts.push({ kind: 'unclosed', text: rest.slice(first.at) });
      break;
    }
    parts.push({ kind: first.tag, text: rest.slice(first.at + open.length, end) });
    rest = rest.slice(end + close.length);
  }
  return parts.filter((part) => part.kind !== 'text' || part.text.trim().length > 0);
}
