import { createVisualSearchSource } from '@saccade/env-procedural';
import { describe, expect, it } from 'vitest';
import { createNoisyGroundingAgent } from '../agents/noisy-grounding-agent';
import { TaskLookup } from '../agents/task-lookup';
import { compareSearchMethods } from './compare-search';

describe('MCTS against sampling alone at equal agent calls (8 visual-search tasks, fixed seeds)', () => {
  it("MCTS's chains are correct more often and it solves every task sampling solves; sampling finds more distinct correct chains", async () => {
    const source = createVisualSearchSource({ split: 'test' });
    const tasks = await Promise.all(Array.from({ length: 8 }, (_, index) => source.get(index)));
    const lookup = await TaskLookup.fromTasks(tasks);
    const result = await compareSearchMethods({ tasks, agentFor: (label) => createNoisyGroundingAgent({ lookup, seed: `0:${label}` }) });

    // Sampling got exactly the generations MCTS spent, task by task.
    expect(result.perTask.map((task) => task.generations)).toEqual([35, 12, 58, 24, 47, 12, 37, 34]);
    expect(result.generations).toBe(259);
    expect(result.mcts.chainAccuracy).toBeGreaterThanOrEqual(result.sampling.chainAccuracy);
    expect(result.mcts.tasksWithCorrectChain).toBeGreaterThanOrEqual(result.sampling.tasksWithCorrectChain);
    expect(result.mcts).toEqual({ tasksWithCorrectChain: 8, correctChains: 72, groundedCorrectChains: 53, chains: 144, chainAccuracy: 0.5, correctChainsPerGeneration: 72 / 259, sftChains: 93 });
    expect(result.sampling).toEqual({ tasksWithCorrectChain: 8, correctChains: 103, groundedCorrectChains: 72, chains: 259, chainAccuracy: 103 / 259, correctChainsPerGeneration: 103 / 259, sftChains: 103 });
  });
});
