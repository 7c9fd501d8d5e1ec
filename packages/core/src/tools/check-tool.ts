import { createHook } from 'node:async_hooks';
import { ConformanceError, type ImageData, type Tool } from '@saccade/spec';
import { TOOL_NAME_PATTERN } from './tool-registry';
import { toolInputJsonSchema } from './tool-json-schema';
import { describeInvalidResult, runTool, validateToolInput } from './run-tool';

/** What `checkTool` runs the tool with: a sample input and its images, bad inputs to refuse, and the time limits of a run and of an abort. */
export interface CheckToolOptions {
  /** Valid arguments to run the tool with (strongly advised: without them the run, abort and leak checks are skipped). */
  sampleInput?: Record<string, unknown>;
  /** The episode images the sample run gets (e.g. a test image for a zoom tool). */
  images?: ImageData[];
  /** Arguments the tool must survive (default: undefined, null, 42, "text", [], an object of junk keys). */
  badInputs?: unknown[];
  /** Longest one call may take (default 10,000 ms). */
  timeoutMs?: number;
  /** How soon a cancelled call must settle (default 1,000 ms). */
  abortGraceMs?: number;
}

/** The result of `checkTool`: whether every check passed, the tool's name and one line per failure. */
export interface CheckToolReport {
  ok: boolean;
  toolName: string;
  /** One line per failed check: what was expected and what came. */
  failures: string[];
}

const DEFAULT_BAD_INPUTS: readonly unknown[] = [undefined, null, 42, 'text', [], { __junk__: { nested: [1, 2] }, '': -1 }];

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Settles a promise within `ms`: its outcome, or `'hung'`. */
async function within<T>(promise: Promise<T>, ms: number): Promise<{ value: T } | { error: unknown } | 'hung'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), ms)));
  try {
    return await Promise.race([promise.then((value) => ({ value }), (error: unknown) => ({ error })), hung]);
  } finally {
    clearTimeout(timer);
  }
}

// Resource types that outlive a call when leaked: timers, sockets, servers, files, watchers, processes.
const HANDLE_TYPES = new Set(['Timeout', 'Immediate', 'TCPWRAP', 'TCPSERVERWRAP', 'PIPEWRAP', 'PIPESERVERWRAP', 'UDPWRAP', 'FILEHANDLE', 'FSEVENTWRAP', 'STATWATCHER', 'PROCESSWRAP', 'SIGNALWRAP', 'TTYWRAP', 'HTTPCLIENTREQUEST', 'HTTPINCOMINGMESSAGE']);

/**
 * Records the handles created while `run` runs (by identity, through async_hooks, so other work in
 * the process does not count) and returns those still open afterwards, by type.
 */
async function handlesLeftOpen(run: () => Promise<void>): Promise<string[]> {
  const open = new Map<number, string>();
  const hook = createHook({
    init(asyncId, type) {
      if (HANDLE_TYPES.has(type)) open.set(asyncId, type);
    },
    destroy(asyncId) {
      open.delete(asyncId);
    },
  });
  hook.enable();
  try {
    await run();
  } finally {
    hook.disable();
  }
  // Destroy callbacks arrive after the call: let them, and closing sockets, land first (up to
  // ~1.5 s, which a loaded machine needs; a leaked handle stays open however long we wait).
  for (let wait = 0; wait < 8 && open.size > 0; wait++) {
    const watch = createHook({ destroy: (asyncId) => void open.delete(asyncId) }).enable();
    await delay(wait === 0 ? 20 : 200);
    watch.disable();
  }
  const counts = new Map<string, number>();
  for (const type of open.values()) counts.set(type, (counts.get(type) ?? 0) + 1);
  return [...counts].map(([type, count]) => `${count} ${type}`);
}

/**
 * The conformance check every tool package runs (Gymnasium's `check_env`, for tools): the shape
 * of the tool; its schema exports as a JSON Schema object; bad arguments are refused by the schema
 * or become an error result, never a throw or a hang; the sample call returns `{text?, images?}`
 * with valid images; an aborted signal stops it; and it leaves no timers, sockets or file handles
 * behind.
 */
export async function checkTool(tool: Tool, options: CheckToolOptions = {}): Promise<CheckToolReport> {
  const { sampleInput, images = [], badInputs = DEFAULT_BAD_INPUTS, timeoutMs = 10_000, abortGraceMs = 1_000 } = options;
  const failures: string[] = [];
  const fail = (message: string) => void (failures.includes(message) || failures.push(message));
  const toolName = typeof tool?.name === 'string' ? tool.name : 'unknown';

  if (tool?.specificationVersion !== 'v1') fail(`expected specificationVersion "v1", received ${JSON.stringify(tool?.specificationVersion)} (build tools with defineTool)`);
  if (typeof tool?.name !== 'string' || !TOOL_NAME_PATTERN.test(tool.name)) fail(`expected a name of letters, digits, "_" or "-" (1–64), received ${JSON.stringify(tool?.name)}`);
  if (typeof tool?.description !== 'string' || tool.description.trim().length === 0) fail('expected a non-empty description (the model reads it)');
  if (typeof tool?.inputSchema?.['~standard']?.validate !== 'function') fail('expected inputSchema to be a Standard Schema (zod 4 qualifies)');
  if (typeof tool?.execute !== 'function') fail('expected execute to be a function');
  if (failures.length > 0) return { ok: false, toolName, failures };

  try {
    toolInputJsonSchema(tool);
  } catch (error) {
    fail(`expected the input schema to export as JSON Schema: ${(error as Error).message}`);
  }

  for (const bad of badInputs) {
    const label = `arguments ${bad === undefined ? 'undefined' : JSON.stringify(bad)}`;
    const validated = await within(validateToolInput(tool, bad), timeoutMs);
    if (validated === 'hung') {
      fail(`${label}: expected validation to settle, it hung for ${timeoutMs} ms`);
      continue;
    }
    if ('error' in validated) {
      fail(`${label}: expected validation to return issues, it threw ${String(validated.error)}`);
      continue;
    }
    if (!validated.value.ok) continue;
    if (bad === null || typeof bad !== 'object' || Array.isArray(bad)) fail(`${label}: expected the schema to refuse arguments that are not an object, it accepted them`);
    // Accepted junk must still end in a result or an error, promptly.
    let direct: Promise<unknown>;
    try {
      direct = tool.execute(validated.value.value, { images });
    } catch (error) {
      fail(`${label}: expected execute to return a promise, it threw synchronously (${String(error)})`);
      continue;
    }
    const settled = await within(Promise.resolve(direct), timeoutMs);
    if (settled === 'hung') fail(`${label}: expected execute to settle, it hung for ${timeoutMs} ms`);
    else if ('error' in settled && !(settled.error instanceof Error)) fail(`${label}: expected execute to reject with an Error, it rejected with ${typeof settled.error}`);
  }

  if (sampleInput !== undefined) {
    const leaked = await handlesLeftOpen(async () => {
      const run = await runTool(tool, sampleInput, { images, timeoutMs });
      if (!run.ok) fail(`sample input: expected a result, received ${run.kind}: ${run.message}`);
      else {
        const problem = describeInvalidResult(run.result);
        if (problem !== undefined) fail(`sample input: ${problem}`);
        if (run.result.text === undefined && (run.result.images ?? []).length === 0) fail('sample input: expected text or images in the result, received neither');
      }
    });
    if (leaked.length > 0) fail(`sample input: expected no handles left open after the call, found ${leaked.join(', ')} (clear timers, close sockets and files)`);

    const aborted = new AbortController();
    aborted.abort(new Error('cancelled by checkTool'));
    const preAborted = await within(Promise.resolve().then(() => tool.execute(sampleInput as never, { images, signal: aborted.signal })), abortGraceMs);
    if (preAborted === 'hung') fail(`abort: expected a call with an aborted signal to reject within ${abortGraceMs} ms, it hung`);
    else if ('value' in preAborted) fail('abort: expected a call with an aborted signal to reject, it ran (call signal.throwIfAborted(), or use defineTool)');

    const midway = new AbortController();
    const started = Promise.resolve().then(() => tool.execute(sampleInput as never, { images, signal: midway.signal }));
    await delay(0);
    midway.abort(new Error('cancelled by checkTool'));
    const cancelled = await within(started, abortGraceMs);
    if (cancelled === 'hung') fail(`abort: expected a call aborted while running to settle within ${abortGraceMs} ms, it did not`);
  }
  return { ok: failures.length === 0, toolName, failures };
}

/** `checkTool`, throwing a ConformanceError that lists every failure. */
export async function assertTool(tool: Tool, options: CheckToolOptions = {}): Promise<void> {
  const report = await checkTool(tool, options);
  if (!report.ok) throw new ConformanceError({ subject: `Tool "${report.toolName}"`, failures: report.failures });
}
