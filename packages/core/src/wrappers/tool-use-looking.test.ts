import type { Env, EnvInfo, ResetResult, StepResult } from '@saccade/spec';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RED_PIXEL_PNG } from '../__fixtures__/guess-number-env';
import { defineTool } from '../tools/define-tool';
import { ToolUseWrapper } from './tool-use-wrapper';

/** One question about an image whose answer sits in `targetBox`; answers `<answer>found</answer>`. */
class FindEnv implements Env {
  readonly specificationVersion = 'v1' as const;
  readonly id = 'test/Find-v1';
  constructor(readonly info: EnvInfo) {}
  systemPrompt() {
    return 'Find it.';
  }
  async reset(): Promise<ResetResult> {
    return { observation: { text: 'Where is it? <image>', images: [RED_PIXEL_PNG] }, info: { ...this.info } };
  }
  async step(action: string): Promise<StepResult> {
    const success = action === '<answer>found</answer>';
    return { observation: { text: '', images: [] }, reward: success ? 1 : 0, terminated: true, truncated: false, info: { metrics: { success } } };
  }
  async close() {}
}

class FindEnvWithOracle extends FindEnv {
  oracleResponse() {
    return '<answer>found</answer>';
  }
}

/** A 16-px square crop around a point, which can look at a box through its centre. */
const crop = defineTool({
  name: 'crop',
  description: 'Crops 16 px around (x, y).',
  inputSchema: z.object({ x: z.number(), y: z.number() }),
  execute: async ({ x, y }) => ({ text: `around ${x},${y}`, region: [x - 8, y - 8, x + 8, y + 8] }),
  lookAt: ([x1, y1, x2, y2]) => ({ x: (x1 + x2) / 2, y: (y1 + y2) / 2 }),
});
const say = defineTool({ name: 'say', description: 'Says a word.', inputSchema: z.object({ word: z.string() }), execute: async ({ word }) => ({ text: word }) });
const call = (name: string, args: Record<string, unknown>) => `<tool_call>${JSON.stringify({ name, arguments: args })}</tool_call>`;

describe('ToolUseWrapper: looking at the target', () => {
  it('marks each crop that holds the whole target, and the oracle looks first, then answers', async () => {
    const env = new ToolUseWrapper(new FindEnvWithOracle({ targetBox: [10, 12, 20, 22] }), { tools: [say, crop] });
    await env.reset({ seed: 0 });
    // The first tool that can look (crop, not say), at the target's centre.
    expect(await env.oracleResponse!()).toBe(call('crop', { x: 15, y: 17 }));

    const missed = await env.step(call('crop', { x: 40, y: 17 }));
    expect(missed.info['toolCalls']).toEqual([{ name: 'crop', arguments: { x: 40, y: 17 }, ok: true, durationMs: expect.any(Number), images: 0, region: [32, 9, 48, 25], hit: false }]);
    expect(missed.info['metrics']).toEqual({ action_is_valid: true, tool_call_count: 1, target_hit: false });
    expect(await env.oracleResponse!()).toBe(call('crop', { x: 15, y: 17 }));

    // 8 px either side of (13, 17) holds [10, 12, 20, 22] exactly; (11, 17) leaves x 19–20 out.
    const partly = await env.step(call('crop', { x: 11, y: 17 }));
    expect((partly.info['toolCalls'] as { hit: boolean }[])[0]!.hit).toBe(false);
    const hit = await env.step(`${call('say', { word: 'here' })}${call('crop', { x: 12, y: 17 })}`);
    expect((hit.info['toolCalls'] as { name: string; hit?: boolean }[]).map(({ name, hit }) => ({ name, hit }))).toEqual([{ name: 'say', hit: undefined }, { name: 'crop', hit: true }]);
    expect(hit.info['metrics']).toEqual({ action_is_valid: true, tool_call_count: 2, target_hit: true });
    expect(await env.oracleResponse!()).toBe('<answer>found</answer>');
    const answer = await env.step('<answer>found</answer>');
    expect([answer.reward, answer.info['metrics']]).toEqual([1, { success: true, target_hit: true }]);

    // A new episode has not looked yet; answering without a look is a miss.
    await env.reset({ seed: 1 });
    expect(await env.oracleResponse!()).toBe(call('crop', { x: 15, y: 17 }));
    expect((await env.step('<answer>found</answer>')).info['metrics']).toEqual({ success: true, target_hit: false });
  });

  it('rewards.targetHit: the first turn whose crop holds the target earns it (term target_hit), once an episode; misses earn nothing', async () => {
    const env = new ToolUseWrapper(new FindEnv({ targetBox: [10, 12, 20, 22] }), { tools: [crop], rewards: { targetHit: 0.5, invalidCall: -0.1 } });
    await env.reset({ seed: 0 });
    const missed = await env.step(call('crop', { x: 40, y: 17 }));
    expect([missed.reward, missed.info.rewardTerms]).toEqual([0, {}]);
    const hit = await env.step(call('crop', { x: 15, y: 17 }));
    expect([hit.reward, hit.info.rewardTerms]).toEqual([0.5, { target_hit: 0.5 }]);
    const again = await env.step(call('crop', { x: 14, y: 17 }));
    expect([again.reward, again.info.rewardTerms]).toEqual([0, {}]);
    // A new episode can earn it again; a bad call still pays its penalty.
    await env.reset({ seed: 1 });
    const bad = await env.step(call('crop', { x: 'left' }));
    expect([bad.reward, bad.info.rewardTerms]).toEqual([-0.1, { invalid_call: -0.1 }]);
    const first = await env.step(call('crop', { x: 15, y: 17 }));
    expect([first.reward, first.info.rewardTerms]).toEqual([0.5, { target_hit: 0.5 }]);
  });

  it('with targetBoxes (a relation question) the oracle looks at each box no region has held yet, then answers; hits score targetBox alone', async () => {
    const env = new ToolUseWrapper(new FindEnvWithOracle({ targetBox: [10, 12, 20, 22], targetBoxes: [[10, 12, 20, 22], [40, 12, 50, 22]] }), { tools: [crop] });
    await env.reset({ seed: 0 });
    expect(await env.oracleResponse!()).toBe(call('crop', { x: 15, y: 17 }));
    const first = await env.step(call('crop', { x: 15, y: 17 }));
    expect((first.info['toolCalls'] as { hit: boolean }[])[0]!.hit).toBe(true);
    expect(await env.oracleResponse!()).toBe(call('crop', { x: 45, y: 17 }));
    const second = await env.step(call('crop', { x: 45, y: 17 }));
    expect((second.info['toolCalls'] as { hit: boolean }[])[0]!.hit).toBe(false);
    expect(await env.oracleResponse!()).toBe('<answer>found</answer>');
    expect((await env.step('<answer>found</answer>')).info['metrics']).toEqual({ success: true, target_hit: true });

    // A look at the second object first leaves the first to look at; a malformed list falls back to targetBox.
    await env.reset({ seed: 1 });
    await env.step(call('crop', { x: 45, y: 17 }));
    expect(await env.oracleResponse!()).toBe(call('crop', { x: 15, y: 17 }));
    const malformed = new ToolUseWrapper(new FindEnvWithOracle({ targetBox: [10, 12, 20, 22], targetBoxes: [[10, 12, 20, 22], [40, 12]] }), { tools: [crop] });
    await malformed.reset();
    await malformed.step(call('crop', { x: 15, y: 17 }));
    expect(await malformed.oracleResponse!()).toBe('<answer>found</answer>');
  });

  it('lookingOracle.minTargetPixels: the oracle looks again, closer, until a result shows the target that large; tools get each image\'s region', async () => {
    // Each look crops a quarter of the latest image's region (the original is 200 px) around (x, y), returned at 20 × 20 px.
    const seen: unknown[] = [];
    const zoom = defineTool({
      name: 'zoom',
      description: 'Crops a quarter of the latest image around (x, y).',
      inputSchema: z.object({ x: z.number(), y: z.number() }),
      execute: async ({ x, y }, { regions }) => {
        seen.push(regions);
        const last = regions?.at(-1) ?? [0, 0, 200, 200];
        const half = (last[2] - last[0]) / 8;
        return { text: 'closer', images: [{ ...RED_PIXEL_PNG, width: 20, height: 20 }], region: [x - half, y - half, x + half, y + half] };
      },
      lookAt: ([x1, y1, x2, y2]) => ({ x: (x1 + x2) / 2, y: (y1 + y2) / 2 }),
    });
    const target = { targetBox: [100, 100, 110, 110] };
    const env = new ToolUseWrapper(new FindEnvWithOracle(target), { tools: [zoom], lookingOracle: { minTargetPixels: 8 } });
    await env.reset({ seed: 0 });
    expect(await env.oracleResponse!()).toBe(call('zoom', { x: 105, y: 105 }));
    // [80, 80, 130, 130] holds the 10-px target but shows it 10 × 20 / 50 = 4 px across: look again.
    const first = await env.step(call('zoom', { x: 105, y: 105 }));
    expect((first.info['toolCalls'] as { region: number[]; hit: boolean }[])[0]).toMatchObject({ region: [80, 80, 130, 130], hit: true });
    expect(await env.oracleResponse!()).toBe(call('zoom', { x: 105, y: 105 }));
    // [98.75, …, 111.25] shows it 16 px across: seen, so the oracle answers.
    const second = await env.step(call('zoom', { x: 105, y: 105 }));
    expect((second.info['toolCalls'] as { region: number[] }[])[0]!.region).toEqual([98.75, 98.75, 111.25, 111.25]);
    expect(await env.oracleResponse!()).toBe('<answer>found</answer>');
    expect(seen).toEqual([[undefined], [undefined, [80, 80, 130, 130]]]);

    // Without it one look that holds the target is enough; a result of unknown size counts as close enough.
    const once = new ToolUseWrapper(new FindEnvWithOracle(target), { tools: [zoom] });
    await once.reset();
    await once.step(call('zoom', { x: 105, y: 105 }));
    expect(await once.oracleResponse!()).toBe('<answer>found</answer>');
    const unsized = new ToolUseWrapper(new FindEnvWithOracle(target), { tools: [crop], lookingOracle: { minTargetPixels: 1000 } });
    await unsized.reset();
    await unsized.step(call('crop', { x: 105, y: 105 }));
    expect(await unsized.oracleResponse!()).toBe('<answer>found</answer>');
    expect(() => new ToolUseWrapper(new FindEnvWithOracle(target), { tools: [zoom], lookingOracle: { minTargetPixels: -1 } })).toThrow(
      /lookingOracle\.minTargetPixels: expected a number of pixels ≥ 0, received -1/,
    );
  });

  it('without a target the oracle answers at once and calls are not scored; without an inner oracle there is none', async () => {
    const plain = new ToolUseWrapper(new FindEnvWithOracle({}), { tools: [crop] });
    await plain.reset();
    expect(await plain.oracleResponse!()).toBe('<answer>found</answer>');
    const result = await plain.step(call('crop', { x: 5, y: 5 }));
    expect(result.info['toolCalls']).toEqual([{ name: 'crop', arguments: { x: 5, y: 5 }, ok: true, durationMs: expect.any(Number), images: 0, region: [-3, -3, 13, 13] }]);
    expect(result.info['metrics']).toEqual({ action_is_valid: true, tool_call_count: 1 });
    expect((await plain.step('<answer>found</answer>')).info['metrics']).toEqual({ success: true });

    // A malformed target (3 numbers) is no target.
    const malformed = new ToolUseWrapper(new FindEnvWithOracle({ targetBox: [1, 2, 3] }), { tools: [crop] });
    await malformed.reset();
    expect(await malformed.oracleResponse!()).toBe('<answer>found</answer>');

    expect(new ToolUseWrapper(new FindEnv({ targetBox: [0, 0, 1, 1] }), { tools: [crop] }).oracleResponse).toBeUndefined();
    await expect(new ToolUseWrapper(new FindEnvWithOracle({}), { tools: [crop] }).oracleResponse!()).rejects.toThrow(/reset\(\) to be called first/);
  });
});
