import { describe, expect, test } from 'vitest';
import { cpuTime } from '../__fixtures__/cpu-time';
import { parseJsonSafely } from './parse-json-safely';
import { parseToolCalls, type ToolCallParseResult } from './parse-tool-calls';

describe('parseToolCalls', () => {
  test('the three shapes are normalised to {name, arguments}', () => {
    const text = `Let me zoom in.
<tool_call>
{"name": "image_zoom_in_tool", "arguments": {"bbox_2d": [10, 20, 110, 220], "label": "the red car"}}
</tool_call>
<tool_call>{"tool": "chartmoe", "task": "to_table"}</tool_call>
<tool_call>{"tool": "geometry", "parameters": {"function": "triangle_area", "a": 3}}</tool_call>`;
    expect(parseToolCalls(text)).toEqual([
      {
        ok: true,
        call: { name: 'image_zoom_in_tool', arguments: { bbox_2d: [10, 20, 110, 220], label: 'the red car' } },
        raw: '\n{"name": "image_zoom_in_tool", "arguments": {"bbox_2d": [10, 20, 110, 220], "label": "the red car"}}\n',
      },
      { ok: true, call: { name: 'chartmoe', arguments: { task: 'to_table' } }, raw: '{"tool": "chartmoe", "task": "to_table"}' },
      {
        ok: true,
        call: { name: 'geometry', arguments: { function: 'triangle_area', a: 3 } },
        raw: '{"tool": "geometry", "parameters": {"function": "triangle_area", "a": 3}}',
      },
    ]);
  });

  test('ViGoRL search_coordinate, string arguments, missing arguments', () => {
    expect(parseToolCalls('<tool_call>{"name": "search_coordinate", "arguments": {"coordinate": [120, 45]}}</tool_call>')[0]).toMatchObject({
      ok: true,
      call: { name: 'search_coordinate', arguments: { coordinate: [120, 45] } },
    });
    expect(parseToolCalls('<tool_call>{"name": "ocr", "arguments": "{\\"task\\": \\"detect_only\\"}"}</tool_call>')[0]).toMatchObject({
      ok: true,
      call: { name: 'ocr', arguments: { task: 'detect_only' } },
    });
    expect(parseToolCalls('<tool_call>{"name": "rotate"}</tool_call>')[0]).toMatchObject({ ok: true, call: { name: 'rotate', arguments: {} } });
  });

  test('no calls', () => {
    expect(parseToolCalls('<answer>Left</answer>')).toEqual([]);
    expect(parseToolCalls('')).toEqual([]);
  });

  test('bad calls are reported one by one, good ones still parse', () => {
    const results = parseToolCalls(
      '<tool_call>{"name": "zoom", "arguments": {</tool_call><tool_call>[1, 2]</tool_call><tool_call>{"arguments": {}}</tool_call><tool_call>{"name": "zoom", "arguments": [1]}</tool_call><tool_call>{"name": "ok"}</tool_call>',
    );
    expect(results.map((result) => (result.ok ? `ok ${result.call.name}` : result.error))).toEqual([
      expect.stringMatching(/^the tool call is not valid JSON: /),
      'expected a JSON object like {"name": …, "arguments": {…}}, received an array',
      'expected a "name" (or "tool") string naming the tool',
      'expected "arguments" of "zoom" to be an object, received [1]',
      'ok ok',
    ]);
  });

  test('an open block at the end (generation stopped at the stop string) is read to the end', () => {
    expect(parseToolCalls('<tool_call>{"name": "zoom", "arguments": {"bbox_2d": [0, 0, 50, 50]}}')).toEqual([
      { ok: true, call: { name: 'zoom', arguments: { bbox_2d: [0, 0, 50, 50] } }, raw: '{"name": "zoom", "arguments": {"bbox_2d": [0, 0, 50, 50]}}' },
    ]);
    expect(parseToolCalls('<tool_call>{"name": "a"}<tool_call>{"name": "b"}</tool_call>').map((result) => result.ok)).toEqual([false, true]);
  });

  test('__proto__ and constructor keys do not pollute prototypes', () => {
    const results = parseToolCalls(
      '<tool_call>{"name": "x", "arguments": {"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}, "a": {"__proto__": {"polluted": true}}}}</tool_call>' +
        '<tool_call>{"tool": "y", "__proto__": {"polluted": true}, "parameters": {"__proto__": {"polluted": true}}}</tool_call>',
    );
    expect(results.map((result) => result.ok && result.call)).toEqual([
      { name: 'x', arguments: { a: {} } },
      { name: 'y', arguments: {} },
    ]);
    const merged = Object.assign({}, ...results.map((result) => (result.ok ? result.call.arguments : {})));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(merged.polluted).toBeUndefined();
  });

  test('caps: call count and JSON size', () => {
    const many = '<tool_call>{"name": "a"}</tool_call>'.repeat(20);
    const results = parseToolCalls(many, { maxCalls: 3 });
    expect(results.map((result) => result.ok)).toEqual([true, true, true, false]);
    expect(results[3]).toMatchObject({ ok: false, error: 'expected at most 3 tool calls in one turn; this one was ignored' });
    const big = `<tool_call>{"name": "a", "arguments": {"x": "${'y'.repeat(200)}"}}</tool_call>`;
    expect(parseToolCalls(big, { maxJsonLength: 100 })[0]).toMatchObject({
      ok: false,
      error: 'expected tool call JSON of at most 100 characters, received 237',
    });
  });

  test('hostile 10 MB inputs do not throw and finish fast', () => {
    const mb = 10 * 1024 * 1024;
    const inputs = [
      '<tool_call>'.repeat(mb / 11),
      `<tool_call>${'['.repeat(mb)}</tool_call>`,
      `<tool_call>${'['.repeat(50_000)}${']'.repeat(50_000)}</tool_call>`,
      `<tool_call>{"name": "a", "arguments": ${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}</tool_call>`,
      '<'.repeat(mb),
    ];
    for (const input of inputs) {
      let results: ToolCallParseResult[] = [];
      expect(cpuTime(() => (results = parseToolCalls(input)))).toBeLessThan(500);
      expect(results.every((result) => result.ok === false || typeof result.call.name === 'string')).toBe(true);
      expect(results.length).toBeLessThanOrEqual(17);
    }
  });
});

describe('parseJsonSafely', () => {
  test('never throws', () => {
    expect(parseJsonSafely('{"a": 1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseJsonSafely('{').ok).toBe(false);
    expect(parseJsonSafely('[1]', 2)).toEqual({ ok: false, error: 'expected JSON of at most 2 characters, received 3' });
  });
});
