import { IMAGE_PLACEHOLDER, type Tool } from '@saccade/spec';
import { parseToolCalls, type ToolCallParseResult } from '../formats/parse-tool-calls';
import { extractTagContent } from '../formats/scan-tags';
import { toolsSystemPrompt } from '../tools/tool-json-schema';
import type { ToolCallRecord } from './tool-use-wrapper';

/** How a tool format read one response. */
export type ToolTurnReading =
  /** A tool turn: the calls to run, in order (unreadable ones included, to be reported). */
  | { kind: 'calls'; calls: ToolCallParseResult[]; /** Why the turn breaks the format, though its call can run (`info.formatError`). */ formatError?: string }
  /** Not a tool turn: the wrapped env takes the response (the final answer). */
  | { kind: 'answer' }
  /** Neither a call nor an answer the format accepts: reported back, the episode goes on. */
  | { kind: 'invalid'; error: string };

/** One call of a tool turn, as the format writes it back. */
export interface ToolCallOutcome {
  record: ToolCallRecord;
  /** The result's text (or `Error: …` for a failed call), image placeholders removed. */
  text: string;
  /** Images the result brought (attached to the observation in order). */
  images: number;
  /** The settings the env asked this tool to run with in this episode (`info.toolSettings` at reset), when it did. */
  settings?: Record<string, unknown>;
}

/** A tool turn to write back: its calls' outcomes, or the reading's error when there was no call. */
export interface ToolTurnOutcome {
  calls: ToolCallOutcome[];
  /** Why the response was neither a call nor an answer (an `invalid` reading). */
  error?: string;
  /** The response itself. */
  response: string;
  /** The tools the model may call. */
  toolNames: readonly string[];
}

/**
 * How a model calls tools and reads their results: `ToolUseWrapper`'s `format`. The wrapper runs
 * the calls, keeps the limits and the budget and attaches the result images; the format only reads
 * responses and writes observations, so one tool loop serves every call convention.
 */
export interface ToolTurnFormat {
  /** Its name, for messages and docs. */
  readonly name: string;
  /** What follows the env's system prompt to describe the tools (Hermes: the `<tools>` block), or undefined when the env's prompt says it all. Called once, when the wrapper is made. */
  toolsPrompt(tools: readonly Tool[]): string | undefined;
  /** Reads one response. Never throws on model output. */
  read(response: string, options: { maxCalls: number; toolNames: readonly string[] }): ToolTurnReading;
  /** The observation text of a tool turn; one `<image>` placeholder per attached image, in order. */
  write(turn: ToolTurnOutcome): string;
}

const stripPlaceholders = (text: string) => text.replaceAll(IMAGE_PLACEHOLDER, '');

/**
 * The Hermes / Qwen2.5-VL convention (VISTA-Gym, DeepEyes, verl-tool), `ToolUseWrapper`'s default:
 * the system prompt lists the tools in a `<tools>` block, calls are `<tool_call>` blocks in any of
 * the three shapes (several per turn), each result comes back in its own
 * `<tool_response>…</tool_response>` section, and a response without calls goes to the env.
 */
export const HERMES_TOOL_FORMAT: ToolTurnFormat = {
  name: 'hermes',
  toolsPrompt: (tools) => toolsSystemPrompt(tools),
  read(response, { maxCalls }) {
    const calls = parseToolCalls(response, { maxCalls });
    return calls.length === 0 ? { kind: 'answer' } : { kind: 'calls', calls };
  },
  write({ calls, error, response }) {
    const sections = calls.map(
      ({ text, images }) => `<tool_response>\n${[stripPlaceholders(text), ...Array.from({ length: images }, () => IMAGE_PLACEHOLDER)].filter((line) => line.length > 0).join('\n')}\n</tool_response>`,
    );
    if (error !== undefined) sections.push(`<tool_response>\nError: ${stripPlaceholders(error)}\n</tool_response>`);
    if (calls.length > 0 && extractTagContent(response, 'answer') !== undefined) {
      sections.push('Note: your <answer> was not scored because the response also called a tool. Answer in a response without tool calls.');
    }
    return sections.join('\n');
  },
};
