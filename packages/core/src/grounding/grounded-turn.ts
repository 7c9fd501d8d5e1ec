import { parseFormattedResponse } from '../formats/parse-formatted-response';
import { parsePoints, type Point } from '../formats/parse-points';
import { parseToolCalls, type ToolCall } from '../formats/parse-tool-calls';
import type { AnswerType } from '../tasks/vision-qa-task';
import { quoteModelText } from '@saccade/spec';

/** ViGoRL's point-crop tool name. */
export const SEARCH_COORDINATE = 'search_coordinate';

/** ViGoRL's crop call as the model writes it: `<tool_call>\n{"name": "search_coordinate", "arguments": {"coordinate": [x, y]}}\n</tool_call>`. */
export function searchCoordinateCall({ x, y }: { x: number; y: number }): string {
  return `<tool_call>\n{"name": "${SEARCH_COORDINATE}", "arguments": {"coordinate": [${x}, ${y}]}}\n</tool_call>`;
}
/** DeepEyes' zoom tool name (a box; its centre is the crop point). */
export const IMAGE_ZOOM_IN_TOOL = 'image_zoom_in_tool';

/** One assistant turn of a grounded episode, read. */
export interface GroundedTurn {
  /** `tool`: thinking then one tool call; `answer`: thinking then the answer; `invalid`: neither could be read. */
  kind: 'tool' | 'answer' | 'invalid';
  /** The turn is exactly `<think>…</think>` then `<tool_call>…</tool_call>` or `<answer>…</answer>` (whitespace between), with a usable call or answer. */
  wellFormed: boolean;
  think?: string;
  /** The first tool call, when one could be read. */
  call?: ToolCall;
  /** Where the call looks: `coordinate` of a point crop, the centre of a zoom's `bbox_2d`. */
  point?: Point;
  answer?: string;
  /** Why the turn is not well formed. */
  error?: string;
}

const TAG = /<(\/?)(think|tool_call|answer)>/g;
const INTEGER_POINT = /^\(\s*-?\d+\s*,\s*-?\d+\s*\)$/;

/** The answer has the shape the answer type asks for: a point `(x, y)` of integers for clicks, anything non-empty otherwise. */
export function answerFitsType(answer: string, answerType: AnswerType | undefined): boolean {
  if (answer.trim().length === 0) return false;
  return answerType === 'point' ? INTEGER_POINT.test(answer.trim()) : true;
}

/** The content of the first complete `<answer>…</answer>`, trimmed (lenient: text around it is ignored). */
export function readAnswer(text: string): string | undefined {
  const start = text.indexOf('<answer>');
  if (start === -1) return undefined;
  const end = text.indexOf('</answer>', start);
  if (end === -1) return undefined;
  const answer = text.slice(start + '<answer>'.length, end).trim();
  return answer.length > 0 ? answer : undefined;
}

/** Where a tool call looks: a point crop's coordinate, a zoom box's centre; undefined for anything else. */
export function callPoint(call: ToolCall): Point | undefined {
  const { coordinate, bbox_2d: box } = call.arguments;
  if (Array.isArray(coordinate) && coordinate.length === 2 && coordinate.every((value) => typeof value === 'number' && Number.isFinite(value))) {
    return { x: coordinate[0] as number, y: coordinate[1] as number };
  }
  if (Array.isArray(box) && box.length === 4 && box.every((value) => typeof value === 'number' && Number.isFinite(value))) {
    const [x1, y1, x2, y2] = box as [number, number, number, number];
    return { x: (x1 + x2) / 2, y: (y1 + y2) / 2 };
  }
  return undefined;
}

const isInteger = (value: unknown) => typeof value === 'number' && Number.isSafeInteger(value);

/** ViGoRL's format rule for a call: a known tool; a point crop's coordinate is two integers. */
function callProblem(call: ToolCall, toolNames: readonly string[]): string | undefined {
  if (!toolNames.includes(call.name)) return `expected a call to ${toolNames.join(' or ')}, found "${call.name.slice(0, 60)}"`;
  if (call.name === SEARCH_COORDINATE) {
    const { coordinate } = call.arguments;
    if (!Array.isArray(coordinate) || coordinate.length !== 2 || !coordinate.every(isInteger)) return 'expected "coordinate": [x, y] of two integers';
  }
  if (callPoint(call) === undefined) return `expected the arguments of ${call.name} to name a point or a box`;
  return undefined;
}

/** How a turn is read: the tools it may call and the answer type a final answer must fit. */
export interface ParseGroundedTurnOptions {
  /** Tools the model may call (default `['search_coordinate']`). */
  toolNames?: readonly string[];
  /** The task's answer type: clicks must answer with a point `(x, y)`. */
  answerType?: AnswerType;
}

/**
 * Reads one turn of a multi-turn grounded episode. Well formed means exactly
 * `<think>…</think><tool_call>{json}</tool_call>` or `<think>…</think><answer>…</answer>` with
 * only whitespace between and around the tags, non-empty thinking, one readable call to a known
 * tool (a point crop's coordinate two integers) or an answer that fits the answer type. Never
 * throws; linear in the text.
 */
export function parseGroundedTurn(text: string, { toolNames = [SEARCH_COORDINATE], answerType }: ParseGroundedTurnOptions = {}): GroundedTurn {
  if (typeof text !== 'string') return { kind: 'invalid', wellFormed: false, error: 'expected the response to be a string' };
  const calls = parseToolCalls(text, { maxCalls: 4 });
  const firstCall = calls.find((call) => call.ok);
  const call = firstCall?.ok === true ? firstCall.call : undefined;
  const answer = readAnswer(text);
  const turn: GroundedTurn = { kind: call !== undefined ? 'tool' : answer !== undefined ? 'answer' : 'invalid', wellFormed: false };
  if (call !== undefined) {
    turn.call = call;
    const point = callPoint(call);
    if (point !== undefined) turn.point = point;
  }
  if (answer !== undefined && call === undefined) turn.answer = answer;

  const tags = [...text.matchAll(TAG)].slice(0, 8);
  const second = turn.kind === 'tool' ? 'tool_call' : 'answer';
  const expected = [['', 'think'], ['/', 'think'], ['', second], ['/', second]];
  const shape = `<think>…</think><${second}>…</${second}>`;
  if (turn.kind === 'invalid') return { ...turn, error: `expected ${'<think>…</think>'} then a <tool_call> or an <answer>; ${calls[0]?.ok === false ? `the tool call could not be read: ${calls[0].error}` : 'found neither'}` };
  if (tags.length !== 4 || tags.some((tag, index) => tag[1] !== expected[index]![0] || tag[2] !== expected[index]![1])) {
    return { ...turn, error: `expected exactly ${shape}, found the tags ${tags.map((tag) => tag[0]).join('') || 'none'}` };
  }
  const [open, close, start, end] = tags as [RegExpExecArray, RegExpExecArray, RegExpExecArray, RegExpExecArray];
  const outside = text.slice(0, open.index) + text.slice(close.index + close[0].length, start.index) + text.slice(end.index + end[0].length);
  if (outside.trim().length > 0) return { ...turn, error: `expected only whitespace around ${shape}, found ${JSON.stringify(outside.trim().slice(0, 40))}` };
  const think = text.slice(open.index + open[0].length, close.index).trim();
  turn.think = think;
  if (think.length === 0) return { ...turn, error: 'expected thinking inside <think>…</think>, found it empty' };
  if (turn.kind === 'tool') {
    const problem = calls.length === 1 ? callProblem(call!, toolNames) : `expected one tool call, found ${calls.length}`;
    return problem === undefined ? { ...turn, wellFormed: true } : { ...turn, error: problem };
  }
  if (!answerFitsType(answer!, answerType)) return { ...turn, error: `expected an answer of the form (x, y) with integer pixels, found ${quoteModelText(JSON.stringify(answer!.slice(0, 40)))}` };
  return { ...turn, wellFormed: true };
}

/** A single-turn grounded response read: ViGoRL's `<think>…(x, y)…</think><answer>…</answer>`. */
export interface GroundedResponse {
  /** Exactly `<think>…</think><answer>…</answer>` (whitespace between) with an answer that fits the answer type. */
  wellFormed: boolean;
  think?: string;
  answer?: string;
  /** Every `(x, y)` written in the thinking, in order (not yet checked against the image). */
  points: Point[];
  error?: string;
}

/** Reads a single-turn grounded response; the answer is read leniently even when the format is wrong. */
export function parseGroundedResponse(text: string, { answerType }: { answerType?: AnswerType } = {}): GroundedResponse {
  const parsed = parseFormattedResponse(typeof text === 'string' ? text : '', { format: 'free_think', separator: null });
  const source = typeof text === 'string' ? text : '';
  const think = parsed.think ?? (() => {
    const start = source.indexOf('<think>');
    const end = start === -1 ? -1 : source.indexOf('</think>', start);
    return end === -1 ? undefined : source.slice(start + '<think>'.length, end).trim();
  })();
  const answer = parsed.formatCorrect ? parsed.answer : readAnswer(source);
  const response: GroundedResponse = { wellFormed: false, points: think === undefined ? [] : parsePoints(think) };
  if (think !== undefined) response.think = think;
  if (answer !== undefined) response.answer = answer;
  if (!parsed.formatCorrect) return { ...response, error: parsed.error ?? 'the format is wrong' };
  if (!answerFitsType(answer!, answerType)) return { ...response, error: `expected an answer of the form (x, y) with integer pixels, found ${quoteModelText(JSON.stringify(answer!.slice(0, 40)))}` };
  return { ...response, wellFormed: true };
}
