import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GuessNumberEnv, RED_PIXEL_PNG } from '../__fixtures__/guess-number-env';
import { checkEnv } from '../check/check-env';
import { createRng } from '../random/create-rng';
import { defineTool } from '../tools/define-tool';
import { registerTool, unregisterTool } from '../tools/tool-registry';
import { ToolUseWrapper } from './tool-use-wrapper';

const secret = createRng(0).int(1, 20);

const hint = defineTool({
  name: 'hint',
  description: 'Says whether the number is above a value, and shows the picture again.',
  inputSchema: z.object({ above: z.number() }),
  execute: async ({ above }, { images }) => ({ text: secret > above ? 'yes' : 'no', images: images.slice(0, 1) }),
});
const boom = defineTool({ name: 'boom', description: 'Always fails.', inputSchema: z.object({}), execute: async () => { throw new Error('the server is down'); } });
const hang = defineTool({ name: 'hang', description: 'Never returns.', inputSchema: z.object({}), execute: () => new Promise(() => undefined) });

const wrap = (options: Partial<ConstructorParameters<typeof ToolUseWrapper>[1]> = {}) =>
  new ToolUseWrapper(new GuessNumberEnv(), { tools: [hint, boom, hang], timeoutMs: 50, ...options });

describe('ToolUseWrapper', () => {
  it('rewards: a penalty on each tool turn with an invalid call, and the tool bonus on a right answer after a call that gave a result', async () => {
    const env = wrap({ rewards: { invalidCall: -0.1, toolBonus: 1 } });
    await env.reset({ seed: 0 });
    const bad = await env.step('<tool_call>{"name": "search", "arguments": {}}</tool_call>');
    expect(bad).toMatchObject({ reward: -0.1, info: { valid: false, rewardTerms: { invalid_call: -0.1 } } });
    const good = await env.step('<tool_call>{"name": "hint", "arguments": {"above": 10}}</tool_call>');
    expect(good).toMatchObject({ reward: 0, info: { valid: true, rewardTerms: {} } });
    const wrong = await env.step(`<answer>${secret === 1 ? 2 : 1}</answer>`);
    expect(wrong.reward).toBe(0.5);
    expect(wrong.info.rewardTerms).toEqual({ format: 0.5, success: 0 });
    const right = await env.step(`<answer>${secret}</answer>`);
    expect(right).toMatchObject({ reward: 11.5, terminated: true });
    expect(right.info.rewardTerms).toEqual({ format: 0.5, success: 10, tool_bonus: 1 });

    // Only calls that gave a result earn the bonus: a failed tool run is no look.
    await env.reset({ seed: 0 });
    await env.step('<tool_call>{"name": "boom", "arguments": {}}</tool_call>');
    const unlooked = await env.step(`<answer>${secret}</answer>`);
    expect(unlooked.reward).toBe(10.5);
    expect(unlooked.info.rewardTerms).toEqual({ format: 0.5, success: 10 });
    // Without rewards a bad call earns 0, as before.
    const plain = wrap();
    await plain.reset({ seed: 0 });
    expect(await plain.step('<tool_call>{"name": "search", "arguments": {}}</tool_call>')).toMatchObject({ reward: 0, info: { rewardTerms: {} } });
    expect(() => wrap({ rewards: { invalidCall: Number.NaN } })).toThrow(/rewards\.invalidCall.*a finite number/);
    expect(() => wrap({ rewards: { toolbonus: 1 } as never })).toThrow(/rewards\.toolbonus.*one of invalidCall, toolBonus, targetHit/);
  });

  it('runs calls in all three shapes and returns <tool_response> with images', async () => {
    const env = wrap();
    const reset = await env.reset({ seed: 0 });
    expect(reset.info.toolCallCount).toBe(0);
    const step = await env.step(
      [
        '<think>Ask twice.</think>',
        '<tool_call>\n{"name": "hint", "arguments": {"above": 10}}\n</tool_call>',
        '<tool_call>{"tool": "hint", "above": 30}</tool_call>',
        '<tool_call>{"tool": "hint", "parameters": {"above": 0}}</tool_call>',
      ].join('\n'),
    );
    const answer = (above: number) => (secret > above ? 'yes' : 'no');
    expect(step.observation.text).toBe(
      [`<tool_response>\n${answer(10)}\n<image>\n</tool_response>`, '<tool_response>\nno\n<image>\n</tool_response>', '<tool_response>\nyes\n<image>\n</tool_response>'].join('\n'),
    );
    expect(step.observation.images).toEqual([RED_PIXEL_PNG, RED_PIXEL_PNG, RED_PIXEL_PNG]);
    expect(step).toMatchObject({ reward: 0, terminated: false, truncated: false, info: { valid: true, toolCallCount: 3, turn: 1, metrics: { action_is_valid: true, tool_call_count: 3 } } });
    expect(env.toolCalls).toBe(3);
    const final = await env.step(`<answer>${secret}</answer>`);
    expect(final).toMatchObject({ reward: 10.5, terminated: true, info: { toolCallCount: 3, turn: 2 } });
    await expect(env.step('<answer>1</answer>')).rejects.toThrow('expected an episode in progress');
  });

  it('turns every bad call into an observation with valid: false, and the episode goes on', async () => {
    const env = wrap();
    await env.reset({ seed: 0 });
    const step = await env.step(
      [
        '<tool_call>{"name": "hint", "arguments": {"above": 1</tool_call>',
        '<tool_call>{"name": "search", "arguments": {}}</tool_call>',
        '<tool_call>{"name": "hint", "arguments": {"above": "ten"}}</tool_call>',
        '<tool_call>{"name": "boom", "arguments": {}}</tool_call>',
      ].join(''),
    );
    const [first, ...rest] = step.observation.text.split('\n<tool_response>');
    // The JSON message is V8's own wording, which varies between Node versions.
    expect(first).toMatch(/^<tool_response>\nError: could not read the tool call: the tool call is not valid JSON: Expected ',' or '}' after property value in JSON at position \d+.*\.\n<\/tool_response>$/);
    expect({ text: rest.map((section) => `<tool_response>${section}`).join('\n'), images: step.observation.images }).toEqual({
      text: [
        '<tool_response>\nError: unknown tool "search"; expected one of: hint, boom, hang.\n</tool_response>',
        '<tool_response>\nError: invalid arguments for "hint": above: Invalid input: expected number, received string.\n</tool_response>',
        '<tool_response>\nError: "boom" failed: the server is down.\n</tool_response>',
      ].join('\n'),
      images: [],
    });
    expect(step).toMatchObject({ reward: 0, terminated: false, truncated: false, info: { valid: false, metrics: { action_is_valid: false } } });
    expect((step.info.toolCalls as Array<{ failure?: string }>).map((call) => call.failure)).toEqual(['parse-error', 'unknown-tool', 'invalid-arguments', 'failed']);
    const hung = await env.step('<tool_call>{"name": "hang", "arguments": {}}</tool_call><answer>3</answer>');
    expect(hung.observation.text).toBe(
      '<tool_response>\nError: "hang" did not finish within 50 ms.\n</tool_response>\nNote: your <answer> was not scored because the response also called a tool. Answer in a response without tool calls.',
    );
    expect((await env.step(`<answer>${secret}</answer>`)).terminated).toBe(true);
  });

  it('caps tool calls per episode and turns, and appends the <tools> block to the system prompt', async () => {
    const env = wrap({ maxToolCalls: 1, maxTurns: 2 });
    await env.reset({ seed: 0 });
    const first = await env.step('<tool_call>{"name": "hint", "arguments": {"above": 1}}</tool_call><tool_call>{"name": "hint", "arguments": {"above": 2}}</tool_call>');
    expect(first.observation.text.split('\n</tool_response>\n')[1]).toBe('<tool_response>\nError: the limit of 1 tool calls per episode is reached; "hint" was not run. Give your final answer.\n</tool_response>');
    const second = await env.step('<tool_call>{"name": "hint", "arguments": {"above": 3}}</tool_call>');
    expect(second).toMatchObject({ truncated: true, terminated: false, info: { truncatedBy: 'tool-use-turn-limit' } });
    expect(env.systemPrompt()).toMatch(/^Guess the number from 1 to 20\. Answer with <answer>N<\/answer>\.\n\n# Tools\n/);
    expect(env.systemPrompt()).toContain('{"type":"function","function":{"name":"hint","description":"Says whether the number is above a value, and shows the picture again.","parameters":{"type":"object","properties":{"above":{"type":"number"}},"required":["above"]}}}');
  });

  it('runs calls a tool reads from the response text (textCalls) and lets the tool shape the observation', async () => {
    // A text tool in verl-tool's manner: `<ask>N</ask>` asks whether the number is above N.
    const ask = defineTool({
      name: 'ask',
      description: 'Says whether the number is above a value.',
      inputSchema: z.object({ above: z.number() }),
      execute: async ({ above }) => {
        if (above < 0) throw new Error('expected a value of at least 0');
        return { text: secret > above ? 'yes' : 'no' };
      },
      textCalls: {
        read: (response) => {
          const match = /<ask>(-?\d+)<\/ask>/.exec(response);
          return match === null ? undefined : { above: Number(match[1]) };
        },
        format: (response, output) => `\n<result>\n${output}\n</result>\n`,
      },
    });
    const env = new ToolUseWrapper(new GuessNumberEnv(), { tools: [hint, ask] });
    await env.reset({ seed: 0 });
    const step = await env.step('Is it above ten? <ask>10</ask>');
    expect(step).toMatchObject({ reward: 0, terminated: false, observation: { text: `\n<result>\n${secret > 10 ? 'yes' : 'no'}\n</result>\n`, images: [] }, info: { valid: true, toolCallCount: 1, toolCalls: [{ name: 'ask', arguments: { above: 10 }, ok: true }] } });
    const failed = await env.step('<ask>-1</ask>');
    expect(failed).toMatchObject({ observation: { text: '\n<result>\nError: "ask" failed: expected a value of at least 0.\n</result>\n' }, info: { valid: false, toolCalls: [{ name: 'ask', ok: false, failure: 'failed' }] } });
    // A response with an <answer> goes to the env (here refused for the text around it), even with a text call in it.
    const answered = await env.step(`<ask>3</ask><answer>${secret}</answer>`);
    expect(answered).toMatchObject({ reward: 0, info: { toolCallCount: 2, metrics: { action_is_valid: false } } });
    expect(answered.observation.text).toMatch(/^Invalid answer/);
  });

  it('takes registered tool names and passes checkEnv', async () => {
    registerTool(hint);
    try {
      const report = await checkEnv(() => new ToolUseWrapper(new GuessNumberEnv(), { tools: ['hint'] }), {
        actions: ['<tool_call>{"name": "hint", "arguments": {"above": 5}}</tool_call>', `<answer>${secret}</answer>`],
      });
      expect(report).toEqual({ ok: true, envId: 'test/GuessNumber-v1', failures: [] });
    } finally {
      unregisterTool('hint');
    }
    expect(() => new ToolUseWrapper(new GuessNumberEnv(), { tools: ['hint'] })).toThrow('No tool is registered with name "hint".');
  });
});
