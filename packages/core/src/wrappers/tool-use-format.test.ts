import type { Env, EnvInfo, ResetResult, StepResult } from '@saccade/spec';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../tools/define-tool';
import { createTool, registerTool, unregisterTool } from '../tools/tool-registry';
import { HERMES_TOOL_FORMAT, type ToolTurnFormat } from './tool-turn-format';
import { ToolUseWrapper } from './tool-use-wrapper';

/** A 1 × 1 red PNG. */
const RED_PIXEL_PNG = { data: new Uint8Array(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC', 'base64')), mediaType: 'image/png' as const };

/** One question; `<answer>` ends the episode; the reset asks for the tools' settings it is given. */
class AskEnv implements Env {
  readonly specificationVersion = 'v1' as const;
  readonly id = 'test/Ask-v1';
  constructor(readonly resetInfo: EnvInfo = {}) {}
  systemPrompt() {
    return 'Answer the question.';
  }
  async reset(): Promise<ResetResult> {
    return { observation: { text: 'What is it? <image>', images: [RED_PIXEL_PNG] }, info: { ...this.resetInfo } };
  }
  async step(action: string): Promise<StepResult> {
    return { observation: { text: '', images: [] }, reward: action.includes('<answer>red</answer>') ? 1 : 0, terminated: true, truncated: false, info: {} };
  }
  async close() {}
}

/** Looks at a point: returns the episode's first image, labelled with its settings' `label`; refuses negative points. */
const makeLook = ({ label = 'plain' }: { label?: string } = {}) =>
  defineTool({
    name: 'look',
    description: `Looks at (x, y) (${label}).`,
    inputSchema: z.object({ x: z.number(), y: z.number() }),
    execute: async ({ x, y }, { images }) => {
      if (x < 0 || y < 0) throw new Error(`expected a point on the image, received (${x}, ${y})`);
      return { text: `${label} at ${x},${y}`, images: images.slice(0, 1) };
    },
  });

/** A test convention: `LOOK x y` calls, replies in `<seen>`; a response with neither LOOK nor `<answer>` is invalid. */
const LOOK_FORMAT: ToolTurnFormat = {
  name: 'look',
  toolsPrompt: () => undefined,
  read(response) {
    const match = /LOOK (-?\d+) (-?\d+)/.exec(response);
    if (match !== null) return { kind: 'calls', calls: [{ ok: true, call: { name: 'look', arguments: { x: Number(match[1]), y: Number(match[2]) } }, raw: match[0] }], ...(response.startsWith('LOOK') ? {} : { formatError: 'expected the call first' }) };
    return response.includes('<answer>') ? { kind: 'answer' } : { kind: 'invalid', error: 'expected LOOK x y or an <answer>' };
  },
  write({ calls, error }) {
    if (error !== undefined) return `<seen>Error: ${error}</seen>`;
    return calls.map(({ record, text, images, settings }) => `<seen>${record.ok ? text : `Error: ${record.error}`}${'<image>'.repeat(images)}${settings === undefined ? '' : ` ${JSON.stringify(settings)}`}</seen>`).join('');
  },
};

afterEach(() => unregisterTool('look'));

describe('ToolUseWrapper: formats', () => {
  it('reads and writes with the format given; an invalid turn is reported and the episode goes on', async () => {
    const env = new ToolUseWrapper(new AskEnv(), { tools: [makeLook()], format: LOOK_FORMAT });
    expect(env.systemPrompt()).toBe('Answer the question.');
    await env.reset();
    const look = await env.step('I think. LOOK 3 4');
    expect([look.observation.text, look.observation.images.length, look.info.valid, look.info.formatError]).toEqual(['<seen>plain at 3,4<image></seen>', 1, true, 'expected the call first']);
    const invalid = await env.step('hmm');
    expect([invalid.observation.text, invalid.info.valid, invalid.info.formatError, invalid.info.toolCalls, invalid.terminated]).toEqual(['<seen>Error: expected LOOK x y or an <answer></seen>', false, 'expected LOOK x y or an <answer>', [], false]);
    const answer = await env.step('<answer>red</answer>');
    expect([answer.reward, answer.terminated]).toEqual([1, true]);
  });

  it('keeps the Hermes convention by default: the <tools> block and <tool_response> sections', async () => {
    const env = new ToolUseWrapper(new AskEnv(), { tools: [makeLook()] });
    expect(env.format).toBe(HERMES_TOOL_FORMAT);
    expect(env.systemPrompt()).toMatch(/^Answer the question\.\n\n# Tools\n/);
    await env.reset();
    const step = await env.step('<tool_call>{"name": "look", "arguments": {"x": 1, "y": 2}}</tool_call><answer>red</answer>');
    expect(step.observation.text).toBe(
      '<tool_response>\nplain at 1,2\n<image>\n</tool_response>\nNote: your <answer> was not scored because the response also called a tool. Answer in a response without tool calls.',
    );
  });
});

describe('ToolUseWrapper: a budget of results', () => {
  const budget = { results: 2, spentNote: (n: number) => `All ${n} looks used.`, exceededNote: (n: number) => `No looks remain of ${n}.`, forcedPrefix: '<answer>' };

  it('counts the calls that ran, notes the one that spends it, forces the answer, and ends the episode on a call past it', async () => {
    const env = new ToolUseWrapper(new AskEnv(), { tools: [makeLook()], format: LOOK_FORMAT, budget });
    await env.reset();
    const failed = await env.step('LOOK -1 0');
    expect([failed.observation.text, failed.info.toolBudgetLeft, failed.info.forcedPrefix]).toEqual(['<seen>Error: "look" failed: expected a point on the image, received (-1, 0).</seen>', 2, undefined]);
    const first = await env.step('LOOK 0 0');
    expect([first.observation.text, first.info.toolBudgetLeft, first.info.forcedPrefix]).toEqual(['<seen>plain at 0,0<image></seen>', 1, undefined]);
    const spent = await env.step('LOOK 0 1');
    expect([spent.observation.text, spent.info.toolBudgetLeft, spent.info.forcedPrefix]).toEqual(['<seen>plain at 0,1<image></seen>\nAll 2 looks used.', 0, '<answer>']);
    // A turn that calls nothing still carries the forced prefix while the budget is spent.
    expect((await env.step('hmm')).info.forcedPrefix).toBe('<answer>');
    const past = await env.step('LOOK 5 5');
    expect(past).toEqual({
      observation: { text: 'No looks remain of 2.', images: [] },
      reward: 0,
      terminated: false,
      truncated: true,
      info: expect.objectContaining({ truncatedBy: 'tool-budget', valid: false, toolCalls: [{ name: 'look', arguments: { x: 5, y: 5 }, ok: false, failure: 'budget-spent', error: 'No looks remain of 2.' }] }),
    });
    await expect(env.step('<answer>red</answer>')).rejects.toThrow('the episode has ended');
    // A new episode has its budget back.
    await env.reset();
    expect(env.budgetLeft).toBe(2);
  });

  it('refuses a budget that is not a whole number ≥ 0', () => {
    expect(() => new ToolUseWrapper(new AskEnv(), { tools: [makeLook()], budget: { results: -1 } })).toThrow('expected an integer ≥ 0');
  });
});

describe('ToolUseWrapper: tool settings an env asks for', () => {
  it('makes the tools an env gives settings for with their registered factory, once per settings', async () => {
    registerTool(makeLook(), { create: makeLook });
    expect(createTool('look', { label: 'x' }).description).toBe('Looks at (x, y) (x).');
    // Settings for a tool the wrapper does not offer (`other`) are not its business.
    const env = new ToolUseWrapper(new AskEnv({ toolSettings: { look: { label: 'near' }, other: { unused: true } } }), { tools: ['look'], format: LOOK_FORMAT });
    expect(env.tools.get('look')!.description).toBe('Looks at (x, y) (plain).');
    await env.reset();
    const tool = env.tools.get('look')!;
    expect(tool.description).toBe('Looks at (x, y) (near).');
    const step = await env.step('LOOK 1 1');
    expect(step.observation.text).toBe('<seen>near at 1,1<image> {"label":"near"}</seen>');
    await env.reset();
    expect(env.tools.get('look')).toBe(tool);
  });

  it('says when the tool has no factory, or the settings are not objects by tool name', async () => {
    registerTool(makeLook());
    const bare = new ToolUseWrapper(new AskEnv({ toolSettings: { look: { label: 'near' } } }), { tools: ['look'] });
    await expect(bare.reset()).rejects.toThrow('expected no settings: "look" was registered without a factory (registerTool(tool, {create}))');
    const malformed = new ToolUseWrapper(new AskEnv({ toolSettings: { look: 'near' } }), { tools: ['look'] });
    await expect(malformed.reset()).rejects.toThrow("expected settings objects by tool name, from the env's reset");
  });

  it('createTool refuses an unknown tool and a factory that makes a tool of another name', () => {
    expect(() => createTool('look', {})).toThrow('No tool is registered with name "look"');
    registerTool(makeLook(), { create: () => defineTool({ name: 'other', description: 'Other.', inputSchema: z.object({}), execute: async () => ({}) }) });
    expect(() => createTool('look', {})).toThrow('expected a factory that returns a tool named "look"');
  });
});
