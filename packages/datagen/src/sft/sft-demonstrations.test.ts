import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createVisualSearchSource } from '@saccade/env-procedural';
import { GROUNDED_VISUAL_SEARCH_ID, registerGroundingEnvs } from '@saccade/env-grounded';
import { VisionLanguageModel } from '@saccade/models';
import type { RunEvent } from '@saccade/spec';
import { initTensor } from '@saccade/tensor';
import { trainSft } from '@saccade/trainers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNoisyGroundingAgent } from '../agents/noisy-grounding-agent';
import { TaskLookup } from '../agents/task-lookup';
import { generateSftData } from '../generate/generate-sft-data';
import { sftDemonstrations } from './sft-demonstrations';

const scratch = mkdtempSync(join(tmpdir(), 'saccade-sft-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
beforeAll(async () => {
  await initTensor();
  registerGroundingEnvs();
});

async function mctsFile(method: 'mcts' | 'best-of-n', form?: 'multi-turn'): Promise<string> {
  const source = createVisualSearchSource({ split: 'test' });
  const lookup = await TaskLookup.fromTasks([await source.get(0), await source.get(1)]);
  const output = join(scratch, `${method}-${form ?? 'single'}.jsonl`);
  await generateSftData({ method, source, taskIndices: [0, 1], agent: createNoisyGroundingAgent({ lookup, seed: 1 }), output, maxPerTask: 4, ...(form ? { form } : {}) });
  return output;
}

describe('SFT files as demonstrations', () => {
  it('one trajectory a record, a turn for each assistant message, every image kept by hash', async () => {
    const file = await mctsFile('mcts', 'multi-turn');
    const { trajectories, images } = await sftDemonstrations([file]);
    expect(trajectories.length).toBeGreaterThan(0);
    for (const trajectory of trajectories) {
      expect(trajectory.turns.length).toBeGreaterThan(0);
      for (const turn of trajectory.turns) expect(turn.action.length).toBeGreaterThan(0);
      expect(trajectory.metadata).toMatchObject({ file });
    }
    expect(images.size).toBeGreaterThan(0);
  });

  it('a linearised MCTS file trains the tiny model through trainSft: the loss falls', async () => {
    const demonstrations = await sftDemonstrations([await mctsFile('mcts')]);
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 0, config: { maxSequenceLength: 1024 } });
    const losses: number[] = [];
    const onEvent = (event: RunEvent) => {
      if (event.type === 'update-end') losses.push(event.metrics.loss!);
    };
    const result = await trainSft(
      model,
      {
        envId: GROUNDED_VISUAL_SEARCH_ID,
        envOptions: { split: 'test' },
        oracle: false,
        demonstrations,
        trainSeeds: { start: 0, count: 2 },
        evalSeeds: { start: 100, count: 1 },
        maxTurns: 1,
        view: 'full',
        maxTokens: 8,
        steps: 20,
        batchSize: 4,
        learningRate: 5e-3,
        warmupSteps: 0,
        evalEvery: 100,
        seed: 0,
        workers: 0,
      },
      onEvent,
    );
    expect(result.steps).toBe(20);
    expect(losses).toHaveLength(20);
    expect(losses.at(-1)!).toBeLessThan(losses[0]! * 0.75);
    model.dispose();
  });
});
