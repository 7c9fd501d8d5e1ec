import { InvalidArgumentError, InvalidStateError } from '@saccade/spec';
import { afterEach, describe, expect, test } from 'vitest';
import { TASK_IMAGES } from '../testing';
import { ArrayTaskSource } from './array-task-source';
import { getTaskSourceSpec, listTaskSources, makeTaskSource, registerTaskSource, unregisterTaskSource } from './task-source-registry';

const tasks = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ id: `colour-${index}`, dataset: 'ChartQA', taskFamily: 'chart', images: [TASK_IMAGES.red], question: 'What colour is it?', answer: 'red', answerType: 'text' as const }));

afterEach(() => {
  for (const id of ['test/colours', 'test/shapes']) unregisterTaskSource(id);
});

describe('the task-source registry', () => {
  test('makes a registered source by id with its options', async () => {
    const seen: Record<string, unknown>[] = [];
    registerTaskSource({
      id: 'test/colours',
      description: 'Sample tasks.',
      options: ['count'],
      create: (options) => {
        seen.push(options);
        return new ArrayTaskSource(tasks(Number(options['count'] ?? 1)));
      },
    });
    expect(listTaskSources()).toContain('test/colours');
    expect(getTaskSourceSpec('test/colours')?.options).toEqual(['count']);
    const source = makeTaskSource('test/colours', { count: 2 });
    expect([await source.size(), seen]).toEqual([2, [{ count: 2 }]]);
  });

  test('an unknown id is an InvalidStateError naming the registered ids and close matches', () => {
    registerTaskSource({ id: 'test/shapes', options: [], create: () => new ArrayTaskSource(tasks(1)) });
    const thrown = (() => {
      try {
        makeTaskSource('test/shape');
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toBeInstanceOf(InvalidStateError);
    expect((thrown as Error).message).toContain('none is registered as "test/shape"; registered: ');
    expect((thrown as Error).message).toContain('did you mean test/shapes?');
  });

  test('ids are namespace/name; a duplicate needs override; a factory must return a source', () => {
    for (const id of ['shapes', 'test/', '/shapes', 'a/b/c', 'test/sha pes']) {
      expect(() => registerTaskSource({ id, options: [], create: () => new ArrayTaskSource([]) })).toThrow(
        `Invalid argument id: expected an id of the form "namespace/name", e.g. "saccade/visual-search", received ${JSON.stringify(id)}.`,
      );
    }
    registerTaskSource({ id: 'test/shapes', options: [], create: () => new ArrayTaskSource([]) });
    expect(() => registerTaskSource({ id: 'test/shapes', options: [], create: () => new ArrayTaskSource([]) })).toThrow(InvalidStateError);
    registerTaskSource({ id: 'test/shapes', options: [], create: () => ({}) as never }, { override: true });
    expect(() => makeTaskSource('test/shapes')).toThrow(InvalidArgumentError);
    expect(() => registerTaskSource({ id: 'test/colours', options: 'count' as never, create: () => new ArrayTaskSource([]) })).toThrow(InvalidArgumentError);
  });
});
