import { expect, expectTypeOf, test } from 'vitest';
import type { Tool } from '@saccade/spec';
import { z } from 'zod';
import { defineTool } from './define-tool';

test('defineTool adds the version and types execute from a zod schema', async () => {
  const calculator = defineTool({
    name: 'calculator',
    description: 'Adds two numbers.',
    inputSchema: z.object({ a: z.number(), b: z.number() }),
    execute: async ({ a, b }) => {
      expectTypeOf(a).toEqualTypeOf<number>();
      return { text: String(a + b) };
    },
  });
  expect(calculator.specificationVersion).toBe('v1');
  const validated = await calculator.inputSchema['~standard'].validate({ a: 1, b: 2 });
  expect(validated).toEqual({ value: { a: 1, b: 2 } });
  expect(await calculator.execute({ a: 1, b: 2 }, { images: [] })).toEqual({ text: '3' });
});

test('typed tools fit in a list of tools', () => {
  const echo = defineTool({
    name: 'echo',
    description: 'Echoes its text.',
    inputSchema: z.object({ text: z.string() }),
    execute: async ({ text }) => ({ text }),
  });
  const tools: Tool[] = [echo];
  expect(tools.map((tool) => tool.name)).toEqual(['echo']);
});
