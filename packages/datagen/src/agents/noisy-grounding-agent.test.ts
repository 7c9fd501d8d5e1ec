import { continueAnswer } from '@saccade/agents';
import { parseGroundedResponse } from '@saccade/core';
import { describe, expect, it } from 'vitest';
import { squareTask } from '../../test/scenes';
import { prepareTask, singleTurnMessages } from '../generate/prepare-task';
import { createNoisyGroundingAgent } from './noisy-grounding-agent';
import { TaskLookup } from './task-lookup';

describe('createNoisyGroundingAgent', () => {
  it('writes grounded steps, continues partial answers, honours stop and is deterministic', async () => {
    const task = await squareTask('square-1', 400, 300);
    const lookup = await TaskLookup.fromTasks([task]);
    const messages = singleTurnMessages(await prepareTask(task));
    const texts = async (seed: number) => (await createNoisyGroundingAgent({ lookup, seed }).act({ messages, n: 4 })).outputs.map((output) => output.text);
    const first = await texts(7);
    expect(await texts(7)).toEqual(first);
    for (const text of first) {
      const parsed = parseGroundedResponse(text, { answerType: 'multiple-choice' });
      expect(parsed.wellFormed).toBe(true);
      expect(parsed.points.length).toBeGreaterThan(0);
      expect(['A', 'B', 'C', 'D']).toContain(parsed.answer);
    }
    const agent = createNoisyGroundingAgent({ lookup, seed: 1 });
    // One step at a time (the MCTS expansion), then a forced answer.
    const { outputs } = await continueAnswer(agent, messages, '<think>\nNo square around (10, 10).\n', { n: 3, stop: ['\n'] });
    for (const { text } of outputs) expect(text.endsWith('\n') || text.endsWith('</answer>')).toBe(true);
    const seen = await continueAnswer(agent, messages, '<think>\nThe square is near (405, 305).\n</think>\n<answer>', { n: 20 });
    const right = seen.outputs.filter((output) => output.text === 'B</answer>').length;
    expect(right).toBeGreaterThanOrEqual(15);
    await expect(createNoisyGroundingAgent({ lookup }).act({ messages: [{ role: 'user', content: 'no image' }] })).rejects.toThrow('a chat about a task the lookup knows');
  });

  it('an agent that always finds the target answers right; one that never does answers mostly wrong', async () => {
    const task = await squareTask('square-1', 400, 300);
    const lookup = await TaskLookup.fromTasks([task]);
    const messages = singleTurnMessages(await prepareTask(task));
    const answers = async (settings: Parameters<typeof createNoisyGroundingAgent>[0]) =>
      (await createNoisyGroundingAgent(settings).act({ messages, n: 50 })).outputs.map((output) => parseGroundedResponse(output.text).answer);
    expect((await answers({ lookup, hitProbability: 1, accuracyWhenSeen: 1 })).every((answer) => answer === 'B')).toBe(true);
    const blind = await answers({ lookup, hitProbability: 0, regionProbability: 0, seenRadius: 0, regionRadius: 0, accuracyWhenUnseen: 0 });
    expect(blind.filter((answer) => answer === 'B')).toHaveLength(0);
    expect(() => createNoisyGroundingAgent({ lookup, hitProbability: 2 })).toThrow('expected a probability from 0 to 1');
  });
});
