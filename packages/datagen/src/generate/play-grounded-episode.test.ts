import { FORCED_ANSWER_PREFIX } from '@saccade/core';
import { GroundedSearchEnv } from '@saccade/env-grounded';
import { InvalidArgumentError, InvalidStateError } from '@saccade/spec';
import { describe, expect, it } from 'vitest';
import { squareTask } from '../../test/scenes';
import { createNoisyGroundingAgent } from '../agents/noisy-grounding-agent';
import { TaskLookup } from '../agents/task-lookup';
import { playGroundedEpisode, playGroundedEpisodes } from './play-grounded-episode';

describe('playGroundedEpisode', () => {
  it('plays the forced final answer when the agent spends the budget', async () => {
    const task = await squareTask('square-1', 400, 300);
    const lookup = await TaskLookup.fromTasks([task]);
    // Never finds the square and never stops by itself: it crops until the budget is spent.
    const agent = createNoisyGroundingAgent({ lookup, seed: 3, hitProbability: 0, regionProbability: 0, regionRadius: 0, seenRadius: 0, stopProbability: 0 });
    const env = new GroundedSearchEnv({ tasks: [task] });
    const played = await playGroundedEpisode(env, agent, { taskIndex: 0 });
    expect(played.responses).toHaveLength(5);
    expect(played.responses[4]!.startsWith(FORCED_ANSWER_PREFIX)).toBe(true);
    expect(played.images).toHaveLength(5);
    expect(played.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
    expect(played.final.info.metrics).toMatchObject({ format_correct: true, crops: 4 });
    expect(played.generations).toBe(5);
  });

  it('plays n episodes as a loop of single episodes would, leaves the env open and throws errors as they came', async () => {
    const task = await squareTask('square-1', 400, 300);
    const lookup = await TaskLookup.fromTasks([task]);
    const env = new GroundedSearchEnv({ tasks: [task] });
    const group = await playGroundedEpisodes(env, createNoisyGroundingAgent({ lookup, seed: 9 }), { taskIndex: 0, count: 4 });
    const single = createNoisyGroundingAgent({ lookup, seed: 9 });
    const loop = [];
    for (let sample = 0; sample < 4; sample++) loop.push(await playGroundedEpisode(env, single, { taskIndex: 0 }));
    expect(group.map((played) => played.responses)).toEqual(loop.map((played) => played.responses));
    expect(group.map((played) => played.messages)).toEqual(loop.map((played) => played.messages));
    expect(group.map((played) => played.images.length)).toEqual(loop.map((played) => played.images.length));
    expect(group.map((played) => played.final.reward)).toEqual(loop.map((played) => played.final.reward));
    // The env is still usable, and an error is the env's or the agent's own.
    await expect(playGroundedEpisode(env, single, { taskIndex: 3 })).rejects.toThrow(InvalidArgumentError);
    const stranger = createNoisyGroundingAgent({ lookup: () => undefined });
    await expect(playGroundedEpisode(env, stranger, { taskIndex: 0 })).rejects.toThrow(InvalidStateError);
  });
});
