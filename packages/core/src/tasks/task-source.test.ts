import { InvalidArgumentError } from '@saccade/spec';
import { describe, expect, test } from 'vitest';
import { ArrayTaskSource } from './array-task-source';
import { drawTask, indexForSeed } from './task-source';

describe('drawTask', () => {
  const source = new ArrayTaskSource(['a', 'b', 'c'].map((id) => ({ id, dataset: 'Test', taskFamily: 'test', images: [`${id}.png`], question: `Which is ${id}?`, answer: id, answerType: 'text' })));

  test("the seed's task (seed mod size), or the task index asked for", async () => {
    expect(await drawTask(source, { seed: 7 })).toMatchObject({ index: 1, seed: 7, task: { id: 'b' } });
    expect(await drawTask(source, { seed: 7, taskIndex: 2 })).toMatchObject({ index: 2, seed: 7, task: { id: 'c' } });
    const drawn = await drawTask(source, {});
    expect(drawn.index).toBe(indexForSeed(drawn.seed, 3));
  });

  test('a task index outside the source is refused, saying the range', async () => {
    await expect(drawTask(source, { taskIndex: 3 })).rejects.toThrow(InvalidArgumentError);
    await expect(drawTask(source, { taskIndex: 1.5 })).rejects.toThrow(/options\.taskIndex.*an integer from 0 to 2/s);
    await expect(drawTask(source, { taskIndex: '1' })).rejects.toThrow(/options\.taskIndex/);
  });
});
