import { getTaskSourceSpec, makeEnv, registerTaskSource, unregisterTaskSource, type TaskSourceSpec } from '@saccade/core';
import { InvalidStateError } from '@saccade/spec';
import { afterEach, describe, expect, it } from 'vitest';
import { GROUNDED_GUI_GROUNDING_ID, GROUNDED_VISUAL_SEARCH_ID, GROUNDING_TASK_SOURCES, groundingTaskSource, registerGroundingEnvs } from './register-grounding-envs';

// The setup file registers env-procedural's task sources, as the runner does; each test puts them back.
const registered = Object.fromEntries(['saccade/visual-search', 'saccade/gui-grounding'].map((id) => [id, getTaskSourceSpec(id)!])) as Record<string, TaskSourceSpec>;
afterEach(() => {
  for (const spec of Object.values(registered)) registerTaskSource(spec, { override: true });
});

describe('the procedural grounded envs take their tasks from the task-source registry', () => {
  it('by id: the generator gets split, difficulty and its own options, the env the rest', async () => {
    expect(GROUNDING_TASK_SOURCES).toEqual({
      'saccade/GroundedVisualSearch-v1': 'saccade/visual-search',
      'saccade/VisualSearch-v1': 'saccade/visual-search',
      'saccade/GroundedGuiGrounding-v1': 'saccade/gui-grounding',
      'saccade/GuiGrounding-v1': 'saccade/gui-grounding',
    });
    const given: Record<string, unknown>[] = [];
    const spec = registered['saccade/gui-grounding']!;
    registerTaskSource({ ...spec, create: (options) => (given.push(options), spec.create(options)) }, { override: true });
    registerGroundingEnvs();
    const env = makeEnv(GROUNDED_GUI_GROUNDING_ID, { split: 'test', difficulty: 0.3, maxCrops: 2 });
    const { info } = await env.reset({ seed: 1 });
    expect([given, info.cropsLeft, info.dataset]).toEqual([[{ split: 'test', difficulty: 0.3 }], 2, 'Procedural-GuiGrounding']);
    await env.close();
    expect(groundingTaskSource('saccade/VisualSearch-v1', { split: 'test', maxCrops: 3 }).description).toBe('procedural visual-search (test split, difficulty 0.5)');
  });

  it('a missing task source is an InvalidStateError naming the call that registers it', () => {
    registerGroundingEnvs();
    // What a program that registered the grounded envs alone meets.
    unregisterTaskSource('saccade/visual-search');
    const missing = () => makeEnv(GROUNDED_VISUAL_SEARCH_ID, { split: 'test' });
    expect(missing).toThrow(InvalidStateError);
    expect(missing).toThrow(
      'saccade/GroundedVisualSearch-v1 builds its tasks with the task source saccade/visual-search, which is not registered: call registerProceduralEnvs() (or registerProceduralTaskSources()) of @saccade/env-procedural first (the saccade CLI registers it).',
    );
    expect(() => groundingTaskSource('saccade/VisualSearch-v1')).toThrow('saccade/VisualSearch-v1 builds its tasks with the task source saccade/visual-search, which is not registered');
  });
});
