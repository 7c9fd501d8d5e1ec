import { rmSync } from 'node:fs';
import { checkEnv, createTool, FORCED_ANSWER_PREFIX, makeEnv, type EnvWrapper } from '@saccade/core';
import { decodeImage } from '@saccade/image';
import type { StepResult } from '@saccade/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenSpotFile, squareTask } from '../../test/scenes';
import { GroundedSearchEnv } from './grounded-search-env';
import { GROUNDED_GUI_GROUNDING_ID, GROUNDED_SEARCH_ID, GROUNDED_VISUAL_SEARCH_ID, registerGroundingEnvs } from './register-grounding-envs';

const crop = (x: number, y: number, think = 'I look closer.') => `<think>${think}</think>\n<tool_call>\n{"name": "search_coordinate", "arguments": {"coordinate": [${x}, ${y}]}}\n</tool_call>`;
const CROP_OBSERVATION = '<observation>\nHere is the crop of the image centered on the coordinate:\n<image>\n</observation>';

let screen: { folder: string; file: string };
beforeAll(async () => {
  registerGroundingEnvs();
  screen = await screenSpotFile();
});
afterAll(() => rmSync(screen.folder, { recursive: true, force: true }));

describe('GroundedSearchEnv, multi-turn (ViGoRL visual search)', () => {
  it('crops around the point with the V* preset, counts the budget, forces the answer after the 4th crop', async () => {
    const env = new GroundedSearchEnv({ tasks: [await squareTask('square-1', 400, 300)] });
    const reset = await env.reset({ seed: 0 });
    expect(reset.observation.text).toBe('<image>\nWhat colour is the small square?\nChoices:\n(A) red\n(B) green\n(C) blue\n(D) yellow\nAnswer with the letter of the correct option.');
    expect(reset.info).toMatchObject({ taskId: 'square-1', imageBudget: 5, cropsLeft: 4, imageSize: { width: 800, height: 600 } });
    expect(env.systemPrompt()).toContain('{"name": "search_coordinate", "arguments": {"coordinate": [x, y]}}');
    expect(env.cropSettings).toEqual({ offset: 182, cropSize: 672, dot: false });

    const first = await env.step(crop(406, 306));
    expect(first).toMatchObject({ reward: 0, terminated: false, truncated: false, info: { cropsLeft: 3, valid: true, rewardTerms: {} } });
    expect(first.observation.text).toBe(CROP_OBSERVATION);
    // The crop is [224, 124, 588, 488] of the original, resized to 672²: the square sits at its centre.
    const image = await decodeImage(first.observation.images[0]!, { channels: 3 });
    expect([image.width, image.height]).toEqual([672, 672]);
    expect([...image.data.subarray((336 * 672 + 336) * 3, (336 * 672 + 337) * 3)]).toEqual([0, 170, 0]);
    expect([...image.data.subarray(0, 3)]).toEqual([255, 255, 255]);

    const steps: StepResult[] = [];
    for (const [x, y] of [[100, 100], [700, 100], [100, 500]] as const) steps.push(await env.step(crop(x, y)));
    expect(steps.map((step) => step.info.cropsLeft)).toEqual([2, 1, 0]);
    expect(steps[2]!.observation.text).toBe(`${CROP_OBSERVATION}\nYou have used all 4 crops; give your final answer now.`);
    expect(steps[2]!.info.forcedPrefix).toBe(FORCED_ANSWER_PREFIX);
    expect(env.crops).toEqual([{ x: 406, y: 306 }, { x: 100, y: 100 }, { x: 700, y: 100 }, { x: 100, y: 500 }]);

    const final = await env.step(`${FORCED_ANSWER_PREFIX}B</answer>`);
    expect(final).toMatchObject({ reward: 1.6, terminated: true, truncated: false, info: { rewardTerms: { accuracy: 0.6, format: 0.4, cropBonus: 0.6 }, metrics: { success: true, format_correct: true, crops: 4, distinct_crops: 4 } } });
    expect(final.observation.text).toBe('Your answer is correct.');
    await env.close();
  });

  it('ends without an answer when the budget is spent and the model crops again', async () => {
    const env = new GroundedSearchEnv({ tasks: [await squareTask('square-1', 400, 300)], maxCrops: 2 });
    await env.reset({ seed: 0 });
    await env.step(crop(10, 10));
    expect((await env.step(crop(10, 15))).info.forcedPrefix).toBe(FORCED_ANSWER_PREFIX);
    const last = await env.step(crop(300, 300));
    // Two crops 5 px apart: one distinct point, no bonus; no answer, no format.
    expect(last).toMatchObject({ reward: 0, terminated: false, truncated: true, info: { rewardTerms: { accuracy: 0, format: 0, cropBonus: 0 } } });
    expect(last.observation.text).toBe('No crops remain (the budget is the original and 2 crops); the episode ends without an answer.');
  });

  it('reports bad calls as observations: a point off the image, another tool, no call or answer', async () => {
    const env = new GroundedSearchEnv({ tasks: [await squareTask('square-1', 400, 300)], maxTurns: 4 });
    await env.reset({ seed: 0 });
    const off = await env.step(crop(900, 10));
    expect(off).toMatchObject({ reward: 0, terminated: false, info: { valid: false, cropsLeft: 4 } });
    expect(off.observation).toEqual({ text: '<observation>\nError: "search_coordinate" failed: expected a point inside the image or on its edge, received [900, 10].\n</observation>', images: [] });
    const other = await env.step('<think>Zoom.</think><tool_call>{"name": "image_zoom_in_tool", "arguments": {"bbox_2d": [0, 0, 50, 50]}}</tool_call>');
    expect(other.observation.text).toBe('<observation>\nError: unknown tool "image_zoom_in_tool"; the tool is search_coordinate.\n</observation>');
    const nothing = await env.step('I think it is green.');
    expect(nothing.observation.text).toContain('Error: expected <think>…</think> then a <tool_call> or an <answer>');
    const limit = await env.step(crop(400, 300));
    expect(limit).toMatchObject({ truncated: true, info: { rewardTerms: { accuracy: 0, format: 0, cropBonus: 0 } } });
  });

  it('picks the web preset for clicks (512 px, red dot) and reads ScreenSpot task files', async () => {
    const env = makeEnv(GROUNDED_SEARCH_ID, { taskFile: screen.file }) as EnvWrapper;
    await env.reset({ seed: 0 });
    expect((env.unwrapped as GroundedSearchEnv).cropSettings).toEqual({ offset: 100, cropSize: 512, dot: { radius: 7 } });
    const step = await env.step(crop(506, 106));
    expect(step.observation.text).toBe('<observation>\nHere is the crop of the image centered on the coordinate, with a red dot at the coordinate location:\n<image>\n</observation>');
    const image = await decodeImage(step.observation.images[0]!, { channels: 3 });
    // The crop [406, 6, 606, 206] → 512²; the point (506, 106) lands at (256, 256) under the dot.
    expect([image.width, [...image.data.subarray((256 * 512 + 256) * 3, (256 * 512 + 257) * 3)]]).toEqual([512, [255, 0, 0]]);
    const final = await env.step('<think>The blue square is at (506, 106).</think>\n<answer>(505, 105)</answer>');
    expect(final).toMatchObject({ reward: 1, terminated: true, info: { rewardTerms: { accuracy: 0.6, format: 0.4, cropBonus: 0 } } });
    await env.close();
  });
});

describe('GroundedSearchEnv, single-turn and DeepEyes', () => {
  it('scores one grounded response with vigorl-single-turn', async () => {
    const env = new GroundedSearchEnv({ tasks: [await squareTask('square-1', 400, 300)], mode: 'single-turn' });
    await env.reset({ seed: 0 });
    expect(env.systemPrompt()).toContain('name the place each step looks at as a point (x, y)');
    const step = await env.step('<think>\nThe square at (406, 306) is green.\n</think>\n<answer>B</answer>');
    expect(step).toMatchObject({ reward: 1, terminated: true, info: { rewardTerms: { accuracy: 0.5, groundedFormat: 0.5 }, metrics: { success: true, grounded: true }, points: [[406, 306]] } });
  });

  it('scores a crop then a right answer with deepeyes', async () => {
    const env = new GroundedSearchEnv({ tasks: [await squareTask('square-1', 400, 300)], rewardSet: 'deepeyes' });
    await env.reset({ seed: 0 });
    await env.step(crop(406, 306));
    expect((await env.step('<think>It is green.</think><answer>B</answer>')).info.rewardTerms).toEqual({ accuracy: 0.8, format: 0.2, toolBonus: 1.2 });
  });

  it('refuses a reward set of the other mode and bad settings', async () => {
    const tasks = [await squareTask('square-1', 400, 300)];
    expect(() => new GroundedSearchEnv({ tasks, mode: 'single-turn', rewardSet: 'deepeyes' })).toThrow('expected a reward set for single-turn episodes');
    expect(() => new GroundedSearchEnv({ tasks, preset: 'huge' as 'web' })).toThrow('expected visual-search | web | auto');
    expect(() => new GroundedSearchEnv({ tasks, crop: { offset: 0 } })).toThrow('expected a positive integer (pixels)');
  });
});

describe('GroundedSearchEnv in the frame the model sees (seenSize, cells)', () => {
  it("reads calls as cells of an 8 × 8 grid: the oracle names the target's cell, crops are told apart in pixels of the original", async () => {
    const env = new GroundedSearchEnv({ tasks: [await squareTask('square-1', 400, 300)], seenSize: { width: 8, height: 8 }, cells: true });
    const reset = await env.reset({ seed: 0 });
    expect(env.systemPrompt()).toContain('where (x, y) are a cell (column, row) of the 8 × 8 grid over the original image, counted from 0');
    expect(reset.info).toMatchObject({ targetBox: [400, 300, 412, 312], toolSettings: { search_coordinate: { offset: 182, cropSize: 672, dot: false, seenSize: { width: 8, height: 8 }, cells: true } } });
    // The square's centre (406, 306) of 800 × 600 lies in cell (4, 4).
    const oracle = env.oracleResponse();
    expect(oracle).toBe('<think>The answer is at (4, 4).</think>\n<tool_call>\n{"name": "search_coordinate", "arguments": {"coordinate": [4, 4]}}\n</tool_call>');
    // The cell's middle (450, 337.5) ± 182 px holds the square.
    const first = await env.step(oracle);
    expect(first).toMatchObject({ info: { valid: true, cropsLeft: 3, metrics: { target_hit: true } } });
    const off = await env.step(crop(8, 0));
    expect(off.observation.text).toBe('<observation>\nError: "search_coordinate" failed: expected a cell [column, row] of whole numbers from [0, 0] to [7, 7], received [8, 0].\n</observation>');
    // The next cell is 100 px away: a distinct point (1 apart in cells, under the 10 px of ViGoRL's rule); its crop holds the square too.
    expect((await env.step(crop(5, 4))).info.metrics).toEqual({ action_is_valid: true, crops: 2, target_hit: true });
    expect(env.crops).toEqual([{ x: 4, y: 4 }, { x: 5, y: 4 }]);
    const final = await env.step(env.oracleResponse());
    expect(final).toMatchObject({ reward: 1.2, terminated: true, info: { rewardTerms: { accuracy: 0.6, format: 0.4, cropBonus: 0.2 }, metrics: { success: true, crops: 2, distinct_crops: 2, target_hit: true }, points: [[450, 337.5], [550, 337.5]] } });
    await env.close();
  });

  it("writes and checks points in pixels of the seen image; the oracle's point is the crop tool's lookAt", async () => {
    const tasks = [await squareTask('square-1', 400, 300)];
    const seenSize = { width: 128, height: 96 };
    const env = new GroundedSearchEnv({ tasks, mode: 'single-turn', seenSize });
    await env.reset({ seed: 0 });
    expect(env.systemPrompt()).toContain('as a point (x, y) in integer pixels of the image as you see it, 128 × 96');
    expect(env.oracleResponse()).toBe('<think>\nThe answer is at (65, 49).\n</think>\n<answer>B</answer>');
    const tool = createTool('search_coordinate', { seenSize });
    expect(await tool.lookAt!([400, 300, 412, 312], { images: tasks[0]!.images as never, regions: [undefined] })).toEqual({ coordinate: [65, 49] });
    expect((await env.step(env.oracleResponse())).info).toMatchObject({ rewardTerms: { accuracy: 0.5, groundedFormat: 0.5 }, points: [[65, 49]] });
    await env.reset({ seed: 0 });
    // (406, 306) is on the original but not on the 128 × 96 image the model saw.
    const off = await env.step('<think>\nThe square at (406, 306).\n</think>\n<answer>B</answer>');
    expect(off.info).toMatchObject({ rewardTerms: { accuracy: 0.5, groundedFormat: 0 }, problems: ['no point of <think> lies on the 128 × 96 image'] });
  });

  it('refuses cells without a seen size and a seen size that is not two positive numbers', async () => {
    const tasks = [await squareTask('square-1', 400, 300)];
    expect(() => new GroundedSearchEnv({ tasks, cells: true })).toThrow('expected a seenSize with it');
    expect(() => new GroundedSearchEnv({ tasks, seenSize: { width: 0, height: 8 } })).toThrow('expected {width, height}');
  });
});

describe('conformance and episodes', () => {
  it('passes checkEnv in both modes, with the oracle as actions', async () => {
    const tasks = [await squareTask('square-1', 400, 300)];
    for (const mode of ['multi-turn', 'single-turn'] as const) {
      const env = new GroundedSearchEnv({ tasks, mode });
      await env.reset({ seed: 0 });
      const actions = mode === 'multi-turn' ? [env.oracleResponse(), '<think>\nThe answer is at (406, 306).\n</think>\n<answer>B</answer>'] : [env.oracleResponse()];
      expect(await checkEnv(() => new GroundedSearchEnv({ tasks, mode }), { actions })).toEqual({ ok: true, envId: 'saccade/GroundedSearch-v1', failures: [] });
    }
  });

  it('registers the procedural grounded envs; they pass checkEnv', async () => {
    for (const id of [GROUNDED_VISUAL_SEARCH_ID, GROUNDED_GUI_GROUNDING_ID]) {
      const report = await checkEnv(() => makeEnv(id, { split: 'test' }), { timeoutMs: 30_000 });
      expect(report).toEqual({ ok: true, envId: id, failures: [] });
    }
  });
});
