import type { Tool } from '@saccade/spec';

/** A tool as written by its author: a `Tool` without the version field. */
export type ToolDefinition<INPUT> = Omit<Tool<INPUT>, 'specificationVersion'> & { specificationVersion?: 'v1' };

/**
 * Defines a tool; returns it typed, with `specificationVersion: 'v1'` (like the AI SDK's `tool()`).
 * The `execute` input type comes from the schema (zod 4 and any Standard Schema work). The returned
 * `execute` refuses to start when its signal is already aborted, so every tool honours a cancelled
 * episode without writing that check itself.
 *
 * @example
 * const calculator = defineTool({
 *   name: 'calculator',
 *   description: 'Adds two numbers.',
 *   inputSchema: z.object({ a: z.number(), b: z.number() }),
 *   execute: async ({ a, b }) => ({ text: String(a + b) }),
 * });
 */
export function defineTool<INPUT>(definition: ToolDefinition<INPUT>): Tool<INPUT> {
  const execute = definition.execute;
  return {
    ...definition,
    specificationVersion: 'v1',
    execute: async (input, options) => {
      options?.signal?.throwIfAborted();
      return execute.call(definition, input, options);
    },
  };
}
