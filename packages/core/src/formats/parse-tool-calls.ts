import { parseJsonSafely } from './parse-json-safely';
import { isBlank, scanTags } from './scan-tags';

/** A tool call normalised to the Hermes / Qwen2.5-VL shape. */
export interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** One `<tool_call>` block: the normalised call, or why it could not be read, with the text inside the tags. */
export type ToolCallParseResult =
  | { ok: true; call: ToolCall; /** The text inside the tags. */ raw: string }
  | { ok: false; error: string; raw: string };

/** Limits of `parseToolCalls` on untrusted model output: how many calls, how long a JSON body. */
export interface ParseToolCallsOptions {
  /** Calls after this many are reported as errors. Default 16. */
  maxCalls?: number;
  /** Longest JSON body accepted per call, in characters. Default 100,000. */
  maxJsonLength?: number;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Turns a parsed JSON value into a call, accepting the three shapes models write. */
export function normalizeToolCall(value: unknown): { ok: true; call: ToolCall } | { ok: false; error: string } {
  if (!isRecord(value)) {
    return { ok: false, error: `expected a JSON object like {"name": …, "arguments": {…}}, received ${Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'null' : typeof value}` };
  }
  const { name, tool, arguments: args, parameters, ...rest } = value;
  if (typeof name === 'string' && name.length > 0) {
    // {name, arguments} (Hermes, Qwen); arguments may be a JSON string (OpenAI) or `parameters` (Llama).
    let argumentsValue: unknown = args ?? parameters ?? {};
    if (typeof argumentsValue === 'string') {
      const parsed = parseJsonSafely(argumentsValue);
      if (!parsed.ok) return { ok: false, error: `the arguments string of "${name}" is not JSON: ${parsed.error}` };
      argumentsValue = parsed.value;
    }
    if (!isRecord(argumentsValue)) {
      return { ok: false, error: `expected "arguments" of "${name}" to be an object, received ${JSON.stringify(argumentsValue)?.slice(0, 60)}` };
    }
    return { ok: true, call: { name, arguments: { ...argumentsValue } } };
  }
  if (typeof tool === 'string' && tool.length > 0) {
    // VISTA-Gym: {tool, task, …} and {tool, parameters}: other keys become arguments.
    if (parameters !== undefined && !isRecord(parameters)) {
      return { ok: false, error: `expected "parameters" of "${tool}" to be an object` };
    }
    const merged: Record<string, unknown> = { ...rest, ...(isRecord(args) ? args : {}), ...(parameters ?? {}) };
    return { ok: true, call: { name: tool, arguments: merged } };
  }
  return { ok: false, error: 'expected a "name" (or "tool") string naming the tool' };
}

/**
 * Finds every `<tool_call>…</tool_call>` block and parses its JSON, accepting
 * `{name, arguments}`, `{tool, task, …}` and `{tool, parameters}`, all normalised to
 * `{name, arguments}`. A bad block gives an `ok: false` entry with the reason; nothing throws. A
 * final `<tool_call>` left open (generation stopped at the stop string) is read to the end.
 */
export function parseToolCalls(text: string, { maxCalls = 16, maxJsonLength = 100_000 }: ParseToolCallsOptions = {}): ToolCallParseResult[] {
  if (typeof text !== 'string') return [];
  const results: ToolCallParseResult[] = [];
  // Cap the scan: a flood of tags is cut off after the calls we report.
  const tokens = scanTags(text, ['tool_call'], 2 * maxCalls + 2);
  let open: number | undefined;
  const blocks: Array<{ raw: string; closed: boolean }> = [];
  for (const token of tokens) {
    if (!token.closing) {
      if (open !== undefined) blocks.push({ raw: text.slice(open, token.start), closed: false });
      open = token.end;
    } else if (open !== undefined) {
      blocks.push({ raw: text.slice(open, token.start), closed: true });
      open = undefined;
    }
  }
  if (open !== undefined) {
    // An open block at the end: only if the scan was not cut off.
    const tail = tokens.length < 2 * maxCalls + 2;
    if (tail && !isBlank(text, open, text.length)) blocks.push({ raw: text.slice(open), closed: true });
    else blocks.push({ raw: text.slice(open, Math.min(text.length, open + 200)), closed: false });
  }
  for (const [index, block] of blocks.entries()) {
    const raw = block.raw.length > 1000 ? `${block.raw.slice(0, 1000)}…` : block.raw;
    if (index >= maxCalls) {
      results.push({ ok: false, error: `expected at most ${maxCalls} tool calls in one turn; this one was ignored`, raw });
      break;
    }
    if (!block.closed) {
      results.push({ ok: false, error: 'expected </tool_call> before the next <tool_call>', raw });
      continue;
    }
    const json = block.raw.trim();
    if (json.length > maxJsonLength) {
      results.push({ ok: false, error: `expected tool call JSON of at most ${maxJsonLength} characters, received ${json.length}`, raw });
      continue;
    }
    const parsed = parseJsonSafely(json, maxJsonLength);
    if (!parsed.ok) {
      results.push({ ok: false, error: `the tool call is not valid JSON: ${parsed.error}`, raw });
      continue;
    }
    const normalized = normalizeToolCall(parsed.value);
    results.push(normalized.ok ? { ok: true, call: normalized.call, raw } : { ok: false, error: normalized.error, raw });
  }
  return results;
}
