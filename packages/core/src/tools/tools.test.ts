import { ConformanceError, type Tool } from '@saccade/spec';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RED_PIXEL_PNG } from '../__fixtures__/guess-number-env';
import { assertTool, checkTool } from './check-tool';
import { defineTool } from './define-tool';
import { runTool } from './run-tool';
import { ToolAlreadyRegisteredError, ToolNotFoundError, ToolSchemaError } from './tool-errors';
import { toolInputJsonSchema, toolsSystemPrompt } from './tool-json-schema';
import { getTool, listTools, registerTool, unregisterTool } from './tool-registry';

const add = defineTool({
  name: 'add',
  description: 'Adds two numbers.',
  inputSchema: z.object({ a: z.number().describe('first'), b: z.number().default(1) }),
  execute: async ({ a, b }) => ({ text: String(a + b) }),
});

afterEach(() => {
  for (const tool of listTools()) unregisterTool(tool.name);
});

describe('tool registry', () => {
  it('registers, lists sorted, finds and refuses duplicates and unknown names', () => {
    const echo = defineTool({ name: 'echo', description: 'Echoes.', inputSchema: z.object({ text: z.string() }), execute: async ({ text }) => ({ text }) });
    registerTool(echo);
    registerTool(add);
    expect(listTools().map((tool) => tool.name)).toEqual(['add', 'echo']);
    expect(getTool('echo')).toBe(echo);
    expect(() => registerTool(add)).toThrow(ToolAlreadyRegisteredError);
    registerTool(add, { override: true });
    expect(() => getTool('ad')).toThrow('No tool is registered with name "ad". Registered tools: add, echo.');
    expect(ToolNotFoundError.isInstance((() => { try { getTool('x'); } catch (error) { return error; } })())).toBe(true);
    expect(() => registerTool({ ...add, name: 'has space' })).toThrow('Invalid argument tool.name: expected letters, digits, "_" or "-", 1 to 64 characters, received "has space".');
  });
});

describe('JSON Schema export', () => {
  it('writes the input schema (defaults optional) and the Qwen/Hermes <tools> block', () => {
    expect(toolInputJsonSchema(add)).toEqual({
      type: 'object',
      properties: { a: { type: 'number', description: 'first' }, b: { type: 'number', default: 1 } },
      required: ['a'],
    });
    expect(toolsSystemPrompt([add])).toBe(
      [
        '# Tools',
        '',
        'You may call one or more functions to assist with the user query.',
        '',
        'You are provided with function signatures within <tools></tools> XML tags:',
        '<tools>',
        '{"type":"function","function":{"name":"add","description":"Adds two numbers.","parameters":{"type":"object","properties":{"a":{"type":"number","description":"first"},"b":{"default":1,"type":"number"}},"required":["a"]}}}',
        '</tools>',
        '',
        'For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:',
        '<tool_call>',
        '{"name": <function-name>, "arguments": <args-json-object>}',
        '</tool_call>',
      ].join('\n'),
    );
  });

  it('refuses schemas that are not objects or cannot be written', () => {
    const scalar = defineTool({ name: 's', description: 'd', inputSchema: z.string(), execute: async () => ({}) });
    expect(() => toolInputJsonSchema(scalar as unknown as Tool)).toThrow('received a schema of type "string" where the arguments must be an object');
    const custom = defineTool({ name: 'c', description: 'd', inputSchema: z.object({ f: z.custom<() => void>() }), execute: async () => ({}) });
    expect(() => toolInputJsonSchema(custom as unknown as Tool)).toThrow(ToolSchemaError);
  });
});

describe('runTool', () => {
  it('validates, runs and reports each failure without throwing', async () => {
    expect(await runTool(add, { a: 2 })).toMatchObject({ ok: true, result: { text: '3' } });
    expect(await runTool(add, { a: 'two' })).toMatchObject({ ok: false, kind: 'invalid-arguments', message: 'invalid arguments for "add": a: Invalid input: expected number, received string' });
    const throwing = defineTool({ name: 'boom', description: 'd', inputSchema: z.object({}), execute: async () => { throw new Error('disk full\nstack…'); } });
    expect(await runTool(throwing, {})).toMatchObject({ ok: false, kind: 'failed', message: '"boom" failed: disk full' });
    let sawAbort = false;
    const hanging = defineTool({
      name: 'hang',
      description: 'd',
      inputSchema: z.object({}),
      execute: (_input, { signal }) => new Promise(() => signal?.addEventListener('abort', () => (sawAbort = true))),
    });
    expect(await runTool(hanging, {}, { timeoutMs: 30 })).toMatchObject({ ok: false, kind: 'timeout', message: '"hang" did not finish within 30 ms' });
    expect(sawAbort).toBe(true);
    const bad = defineTool({ name: 'bad', description: 'd', inputSchema: z.object({}), execute: async () => ({ text: 5 }) as never });
    expect(await runTool(bad, {})).toMatchObject({ ok: false, kind: 'invalid-result', message: '"bad" returned an invalid result: expected text to be a string, received number' });
    const controller = new AbortController();
    const pending = runTool(hanging, {}, { signal: controller.signal });
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, kind: 'aborted' });
  });
});

describe('checkTool', () => {
  const image = defineTool({
    name: 'pixel',
    description: 'Returns the first image.',
    inputSchema: z.object({ index: z.number().int().min(0) }),
    execute: async ({ index }, { images }) => ({ text: `image ${index}`, images: images.slice(index, index + 1) }),
  });

  it('passes a well-behaved tool', async () => {
    expect(await checkTool(image, { sampleInput: { index: 0 }, images: [RED_PIXEL_PNG] })).toEqual({ ok: true, toolName: 'pixel', failures: [] });
    await assertTool(add, { sampleInput: { a: 1 } });
  });

  it('reports leaked timers, ignored aborts, accepted junk and hangs', async () => {
    const timers: ReturnType<typeof setInterval>[] = [];
    const leaky = defineTool({ name: 'leaky', description: 'd', inputSchema: z.object({}), execute: async () => (timers.push(setInterval(() => undefined, 1_000)), { text: 'ok' }) });
    const leakyReport = await checkTool(leaky, { sampleInput: {} });
    for (const timer of timers) clearInterval(timer);
    expect(leakyReport.failures).toEqual(['sample input: expected no handles left open after the call, found 1 Timeout (clear timers, close sockets and files)']);

    const raw: Tool = { specificationVersion: 'v1', name: 'raw', description: 'd', inputSchema: z.any(), execute: () => new Promise(() => undefined) };
    const rawReport = await checkTool(raw, { sampleInput: {}, badInputs: [42], timeoutMs: 50, abortGraceMs: 50 });
    expect(rawReport.failures).toEqual([
      'expected the input schema to export as JSON Schema: Cannot export the input schema of tool "raw" as JSON Schema: expected a zod 4 schema or a Standard JSON Schema, received a schema of type undefined where the arguments must be an object.',
      'arguments 42: expected the schema to refuse arguments that are not an object, it accepted them',
      'arguments 42: expected execute to settle, it hung for 50 ms',
      'sample input: expected a result, received timeout: "raw" did not finish within 50 ms',
      'abort: expected a call with an aborted signal to reject within 50 ms, it hung',
      'abort: expected a call aborted while running to settle within 50 ms, it did not',
    ]);
    await expect(assertTool({ ...add, description: ' ' })).rejects.toThrow(ConformanceError);
  });
});
