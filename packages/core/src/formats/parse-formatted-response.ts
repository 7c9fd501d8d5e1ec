import { InvalidArgumentError, quoteModelText } from '@saccade/spec';
import { FORMAT_LAYOUTS, OUTPUT_FORMATS, formatTemplate, type FormatTag, type OutputFormat } from './output-format';
import { isBlank, scanTags, type TagToken } from './scan-tags';
import { splitActions } from './split-actions';

/** How `parseFormattedResponse` reads a response: its format, the action separator and the action cap. */
export interface ParseFormattedResponseOptions {
  format: OutputFormat;
  /** Separator between actions in `<answer>`; `null` keeps the answer whole. Default `','`. */
  separator?: string | null;
  /** At most this many actions per turn; extra ones go to `droppedActions`. Default 1000. */
  maxActions?: number;
  /** Longer responses are rejected without being scanned. Default 1,000,000 characters. */
  maxLength?: number;
}

/** What `parseFormattedResponse` found; text fields are trimmed. */
export interface ParsedResponse {
  format: OutputFormat;
  /** The whole response matches the format (whitespace allowed between tags) and the answer is not empty. */
  formatCorrect: boolean;
  think?: string;
  observation?: string;
  reasoning?: string;
  prediction?: string;
  answer?: string;
  /** The answer split into actions, at most `maxActions`; empty when the format is wrong. */
  actions: string[];
  /** Actions beyond `maxActions`. */
  droppedActions: string[];
  /** Why the format is wrong: what was expected and what came. */
  error?: string;
}

interface Expected {
  name: FormatTag;
  closing: boolean;
  /** The text between this token and the previous one is content (not just whitespace). */
  contentBefore: boolean;
}

function expectedTokens(format: OutputFormat): Expected[] {
  const { think } = FORMAT_LAYOUTS[format];
  const tokens: Expected[] = [];
  const leaf = (name: FormatTag) => {
    tokens.push({ name, closing: false, contentBefore: false }, { name, closing: true, contentBefore: true });
  };
  if (think !== null) {
    if (think.length === 0) leaf('think');
    else {
      tokens.push({ name: 'think', closing: false, contentBefore: false });
      for (const tag of think) leaf(tag);
      tokens.push({ name: 'think', closing: true, contentBefore: false });
    }
  }
  leaf('answer');
  return tokens;
}

const show = (token: { name: string; closing: boolean }) => `<${token.closing ? '/' : ''}${token.name}>`;

function snippet(text: string, start: number, end: number): string {
  const raw = text.slice(start, Math.min(end, start + 40)).trim();
  // Quoted back to the model in feedback: its placeholders must not become image slots.
  return quoteModelText(JSON.stringify(end - start > 40 ? `${raw}…` : raw));
}

/**
 * Parses a response in one of VAGEN's strict formats. The whole response must match (whitespace
 * is allowed between tags); nested, repeated, missing or out-of-order tags and text outside the
 * tags make `formatCorrect` false with an `error` that says what was expected and what came.
 * Never throws on any text and runs in linear time.
 *
 * @example
 * parseFormattedResponse('<think>go left</think><answer>Left, Up</answer>', { format: 'free_think' })
 * // { formatCorrect: true, think: 'go left', answer: 'Left, Up', actions: ['Left', 'Up'], … }
 */
export function parseFormattedResponse(text: string, options: ParseFormattedResponseOptions): ParsedResponse {
  const { format, separator = ',', maxActions, maxLength = 1_000_000 } = options;
  if (!OUTPUT_FORMATS.includes(format)) {
    throw new InvalidArgumentError({ argument: 'format', expected: `one of ${OUTPUT_FORMATS.join(', ')}`, value: format });
  }
  const fail = (error: string): ParsedResponse => ({ format, formatCorrect: false, actions: [], droppedActions: [], error });
  if (typeof text !== 'string') return fail(`expected the response to be a string, received ${typeof text}`);
  if (text.length > maxLength) {
    return fail(`expected a response of at most ${maxLength} characters, received ${text.length}`);
  }

  const expected = expectedTokens(format);
  const names = [...new Set(expected.map((token) => token.name))];
  // One token more than expected is enough to know there are extra tags.
  const tokens = scanTags(text, names, expected.length + 1);
  const expectedShape = `expected ${formatTemplate(format)}`;

  let previousEnd = 0;
  const contents = new Map<FormatTag, string>();
  for (let i = 0; i < expected.length; i++) {
    const want = expected[i]!;
    const token: TagToken | undefined = tokens[i];
    const where = i === 0 ? 'at the start' : `after ${show(expected[i - 1]!)}`;
    if (token === undefined) {
      return fail(`${expectedShape}: missing ${show(want)} ${where}; the response ends`);
    }
    if (token.name !== want.name || token.closing !== want.closing) {
      return fail(`${expectedShape}: expected ${show(want)} ${where}, found ${show(token)} at offset ${token.start}`);
    }
    if (want.contentBefore) {
      contents.set(want.name, text.slice(previousEnd, token.start).trim());
    } else if (!isBlank(text, previousEnd, token.start)) {
      return fail(
        `${expectedShape}: expected only whitespace ${i === 0 ? `before ${show(want)}` : `between ${show(expected[i - 1]!)} and ${show(want)}`}, found text ${snippet(text, previousEnd, token.start)}`,
      );
    }
    previousEnd = token.end;
  }
  const extra = tokens[expected.length];
  if (extra !== undefined) {
    return fail(`${expectedShape}: unexpected ${show(extra)} at offset ${extra.start} (tags must not repeat or nest)`);
  }
  if (!isBlank(text, previousEnd, text.length)) {
    return fail(`${expectedShape}: expected nothing after </answer>, found text ${snippet(text, previousEnd, text.length)}`);
  }

  const answer = contents.get('answer') ?? '';
  const parsed: ParsedResponse = { format, formatCorrect: true, answer, actions: [], droppedActions: [] };
  const thinkToken = tokens.find((token) => token.name === 'think' && !token.closing);
  const thinkClose = tokens.find((token) => token.name === 'think' && token.closing);
  if (thinkToken && thinkClose) parsed.think = text.slice(thinkToken.end, thinkClose.start).trim();
  for (const tag of ['observation', 'reasoning', 'prediction'] as const) {
    const content = contents.get(tag);
    if (content !== undefined) parsed[tag] = content;
  }
  if (answer.length === 0) return { ...parsed, formatCorrect: false, error: `${expectedShape}: the <answer> is empty` };
  const split = splitActions(answer, { separator, ...(maxActions === undefined ? {} : { maxActions }) });
  parsed.actions = split.actions;
  parsed.droppedActions = split.droppedActions;
  return parsed;
}
