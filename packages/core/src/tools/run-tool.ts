import type { ImageBox, ImageData, Tool, ToolResult } from '@saccade/spec';
import { describeInvalidImage } from '../check/detect-image-media-type';

/** What `runTool` passes to the tool (the episode's images, a cancel signal) and its time limit. */
export interface RunToolOptions {
  /** The episode's images, original first. */
  images?: ImageData[];
  /** For each image, the part of the original it shows (`ToolExecuteOptions.regions`). */
  regions?: (ImageBox | undefined)[];
  /** Cancels the run (the episode was cancelled). */
  signal?: AbortSignal;
  /** The tool's signal is aborted and the run reported as failed after this long. Default 30,000 ms. */
  timeoutMs?: number;
}

/** Why a run gave no result. */
export type ToolFailureKind = 'invalid-arguments' | 'failed' | 'timeout' | 'aborted' | 'invalid-result';

/** What `runTool` returns, never throwing: the tool's result, or the kind of failure and a message the model can read; with the duration either way. */
export type ToolRunResult =
  | { ok: true; result: ToolResult; durationMs: number }
  | { ok: false; kind: ToolFailureKind; message: string; durationMs: number; cause?: unknown };

/** What `validateToolInput` returns: the parsed arguments, or a message naming each bad field. */
export type ValidateToolInputResult<INPUT> = { ok: true; value: INPUT } | { ok: false; message: string };

/** Validates arguments with the tool's schema; the message names each bad field, e.g. `bbox_2d: expected array, received string`. */
export async function validateToolInput<INPUT>(tool: Tool<INPUT>, input: unknown): Promise<ValidateToolInputResult<INPUT>> {
  let outcome;
  try {
    outcome = await tool.inputSchema['~standard'].validate(input);
  } catch (error) {
    return { ok: false, message: `the schema of "${tool.name}" threw: ${errorText(error)}` };
  }
  if (outcome.issues === undefined) return { ok: true, value: outcome.value };
  const problems = outcome.issues.slice(0, 5).map((issue) => {
    const path = (issue.path ?? []).map((part) => String(typeof part === 'object' && part !== null && 'key' in part ? part.key : part)).join('.');
    return path.length > 0 ? `${path}: ${issue.message}` : issue.message;
  });
  const more = outcome.issues.length > 5 ? ` (and ${outcome.issues.length - 5} more)` : '';
  return { ok: false, message: `${problems.join('; ')}${more}` };
}

/**
 * Validates and runs one tool call with a time limit and the caller's signal. Never throws: bad
 * arguments, a throwing tool, a tool that hangs past `timeoutMs` (its signal is aborted; a tool that
 * ignores it is left to finish in the background) and a malformed result each come back as
 * `{ok: false, kind, message}` for the model to read.
 */
export async function runTool(tool: Tool, input: unknown, { images = [], regions, signal, timeoutMs = 30_000 }: RunToolOptions = {}): Promise<ToolRunResult> {
  const started = performance.now();
  const elapsed = () => Math.round((performance.now() - started) * 10) / 10;
  const validated = await validateToolInput(tool, input);
  if (!validated.ok) return { ok: false, kind: 'invalid-arguments', message: `invalid arguments for "${tool.name}": ${validated.message}`, durationMs: elapsed() };
  if (signal?.aborted) return { ok: false, kind: 'aborted', message: `"${tool.name}" was not run: the episode was cancelled`, durationMs: elapsed() };

  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stop: ((reason: 'timeout' | 'aborted') => void) | undefined;
  const stopped = new Promise<'timeout' | 'aborted'>((resolve) => (stop = resolve));
  const onAbort = () => {
    controller.abort(signal?.reason);
    stop?.('aborted');
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  timer = setTimeout(() => {
    controller.abort(new Error(`timed out after ${timeoutMs} ms`));
    stop?.('timeout');
  }, timeoutMs);
  try {
    const running = Promise.resolve().then(() => tool.execute(validated.value, { images, ...(regions === undefined ? {} : { regions }), signal: controller.signal }));
    // A tool that ignores its signal must not hold the episode: whichever settles first wins.
    running.catch(() => undefined);
    const winner = await Promise.race([running.then((result) => ({ result })), stopped.then((reason) => ({ reason }))]);
    if ('reason' in winner) {
      return winner.reason === 'timeout'
        ? { ok: false, kind: 'timeout', message: `"${tool.name}" did not finish within ${timeoutMs} ms`, durationMs: elapsed() }
        : { ok: false, kind: 'aborted', message: `"${tool.name}" was cancelled`, durationMs: elapsed() };
    }
    const problem = describeInvalidResult(winner.result);
    if (problem !== undefined) return { ok: false, kind: 'invalid-result', message: `"${tool.name}" returned an invalid result: ${problem}`, durationMs: elapsed() };
    return { ok: true, result: winner.result, durationMs: elapsed() };
  } catch (error) {
    if (signal?.aborted) return { ok: false, kind: 'aborted', message: `"${tool.name}" was cancelled`, durationMs: elapsed(), cause: error };
    return { ok: false, kind: 'failed', message: `"${tool.name}" failed: ${errorText(error)}`, durationMs: elapsed(), cause: error };
  } finally {
    clearTimeout(timer);
    timer = undefined;
    signal?.removeEventListener('abort', onAbort);
  }
}

/** Why a value is not a ToolResult (`{text?: string, images?: ImageData[]}`), or undefined. */
export function describeInvalidResult(result: unknown): string | undefined {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return `expected an object {text?, images?}, received ${result === null ? 'null' : Array.isArray(result) ? 'an array' : typeof result}`;
  const { text, images } = result as Record<string, unknown>;
  if (text !== undefined && typeof text !== 'string') return `expected text to be a string, received ${typeof text}`;
  if (images !== undefined) {
    if (!Array.isArray(images)) return `expected images to be an array, received ${typeof images}`;
    for (const [index, image] of images.entries()) {
      const problem = describeInvalidImage(image);
      if (problem !== undefined) return `images[${index}]: ${problem}`;
    }
  }
  return undefined;
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : typeof error === 'string' ? error : JSON.stringify(error) ?? String(error);
  // The model reads this: one line, bounded.
  const line = text.split('\n')[0] ?? '';
  return line.length > 500 ? `${line.slice(0, 500)}…` : line;
}
