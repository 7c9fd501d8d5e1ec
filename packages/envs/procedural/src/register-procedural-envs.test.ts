import { checkEnv, findAnswerChecker, getAnswerChecker, getTaskSourceSpec, listEnvs, listTaskSources, makeEnv, makeTaskSource, memoryTaskSchema, oracleAnswer, unregisterEnv, VISION_QA_ID } from '@saccade/core';
import { registerVqaEnvs } from '@saccade/env-vqa';
import { InvalidStateError } from '@saccade/spec';
import { beforeEach, describe, expect, it } from 'vitest';
import { ProceduralSource } from './common/procedural-source';
import { CHARTS_ID, COUNTING_ID, GUI_GROUNDING_ID, PROCEDURAL_VQA_ENVS, registerProceduralEnvs, SVG_RECONSTRUCTION_ID } from './register-procedural-envs';

describe('registerProceduralEnvs', () => {
  // What the runner does: env-vqa's env, which plays the generated tasks, is registered beside these.
  beforeEach(() => registerVqaEnvs());

  it('registers the six envs (again without error)', () => {
    registerProceduralEnvs();
    registerProceduralEnvs();
    expect(listEnvs()).toEqual(expect.arrayContaining(['saccade/Charts-v1', 'saccade/Geometry-v1', 'saccade/Counting-v1', 'saccade/VisualSearch-v1', 'saccade/GuiGrounding-v1', SVG_RECONSTRUCTION_ID]));
  });

  it.each(PROCEDURAL_VQA_ENVS.map((entry) => [entry.id, entry] as const))('%s passes checkEnv with the oracle answer, and its tasks are valid', async (id, { generator }) => {
    registerProceduralEnvs();
    const task = await new ProceduralSource(generator, { difficulty: 0.7 }).get(0);
    expect(memoryTaskSchema.safeParse(task).success).toBe(true);
    const report = await checkEnv(() => makeEnv(id, { difficulty: 0.7 }), { actions: [`<answer>${oracleAnswer(task)}</answer>`] });
    expect(report.failures).toEqual([]);
    const env = makeEnv(id, { difficulty: 0.7 });
    await env.reset({ seed: 0 });
    const result = await env.step(`<answer>${oracleAnswer(task)}</answer>`);
    expect(result).toMatchObject({ reward: 1, terminated: true, info: { metrics: { success: true }, dataset: generator.dataset } });
    await env.close();
  });

  it('registers each generator as a task source: the same tasks by id', async () => {
    registerProceduralEnvs();
    expect(listTaskSources()).toEqual(expect.arrayContaining(['saccade/charts', 'saccade/counting', 'saccade/geometry', 'saccade/gui-grounding', 'saccade/visual-search']));
    expect(getTaskSourceSpec('saccade/visual-search')?.options).toEqual(['split', 'difficulty', 'size', 'question', 'targetColour', 'targetGrid', 'level', 'lookalikes', 'targetRadius', 'relationAxis', 'oracleDecoys']);
    const source = makeTaskSource('saccade/visual-search', { split: 'test', difficulty: 0.2 });
    expect(source.description).toBe('procedural visual-search (test split, difficulty 0.2)');
    const generator = PROCEDURAL_VQA_ENVS.find((entry) => entry.generator.name === 'visual-search')!.generator;
    expect((await source.get(4)).id).toBe((await new ProceduralSource(generator, { split: 'test', difficulty: 0.2 }).get(4)).id);
    expect(() => makeTaskSource('saccade/charts', { kinds: ['nope'] })).toThrow(/kinds/);
  });

  it(`${SVG_RECONSTRUCTION_ID} passes checkEnv through makeEnv`, async () => {
    registerProceduralEnvs();
    const report = await checkEnv(() => makeEnv(SVG_RECONSTRUCTION_ID, { difficulty: 0.2 }), { actions: ['<answer><svg width="256" height="256"/></answer>'] });
    expect(report.failures).toEqual([]);
  });

  it('passes generator options to the source and the rest to the env', async () => {
    registerProceduralEnvs();
    const env = makeEnv(CHARTS_ID, { kinds: ['pie'], split: 'test', maxAttempts: 2 });
    const { info } = await env.reset({ seed: 3 });
    expect(info).toMatchObject({ taskId: `charts-test-${2 ** 31 + 3}`, attemptsLeft: 2 });
    const wrong = await env.step('<answer>-1</answer>');
    expect(wrong.terminated).toBe(false);
    expect(() => makeEnv(GUI_GROUNDING_ID, { roles: ['slider'] })).toThrow(/roles: expected a non-empty array of button \| icon-button/);
  });

  it('refuses an option neither the generator nor the env takes, listing both', () => {
    registerProceduralEnvs();
    expect(() => makeEnv(CHARTS_ID, { difficulty: 0.5, zzz: 1 })).toThrow(/^Invalid argument zzz: expected an option of saccade\/Charts-v1: split, difficulty, .*format, maxAttempts/);
  });

  it(`plays the generated tasks in ${VISION_QA_ID}, reached through the registry, under its own id`, async () => {
    registerProceduralEnvs();
    const env = makeEnv(COUNTING_ID, { difficulty: 0.3 });
    expect(env.id).toBe(COUNTING_ID);
    const { info } = await env.reset({ seed: 1 });
    expect(info).toMatchObject({ dataset: 'Procedural-Counting', attemptsLeft: 1 });
    await env.close();
    unregisterEnv(VISION_QA_ID);
    expect(() => makeEnv(CHARTS_ID)).toThrow(InvalidStateError);
    expect(() => makeEnv(CHARTS_ID)).toThrow(
      'saccade/Charts-v1 plays its generated tasks in saccade/VisionQA-v1, which is not registered: call registerVqaEnvs() of @saccade/env-vqa first (the saccade CLI registers it).',
    );
  });

  it('registers each dataset name as an alias of its checker', () => {
    registerProceduralEnvs();
    expect(findAnswerChecker('Procedural-Charts')).toBe(getAnswerChecker('ChartQA'));
    expect(findAnswerChecker('Procedural-GuiGrounding')).toBe(getAnswerChecker('ScreenSpot'));
  });
});
