import type { Tool } from '@saccade/spec';
import { z } from 'zod';
import { defineTool } from '../tools/define-tool';

/** How {@link createEchoTool} makes its tool. */
export interface EchoToolSettings {
  /** The name the model calls (default `echo`). */
  name?: string;
}

/** The arguments the echo tool takes. */
export interface EchoToolInput {
  /** What the tool says back. */
  text: string;
  /** An episode image to show back too (0 is the original); none when left out. */
  image?: number | undefined;
}

const input = z.object({
  text: z.string().describe('What to say back.'),
  image: z.number().int().min(0).optional().describe('An image of the episode to show back (0 is the original).'),
});

/**
 * A small deterministic tool for tests of wrappers, envs and agents that use tools: it answers
 * `{"text"}` with that text, and with `"image": i` also returns the episode's image i. An index
 * past the episode's images fails with a message that says so; arguments that are not
 * `{text: string, image?: integer ≥ 0}` fail validation. It passes checkTool.
 *
 * @example
 * const env = new ToolUseWrapper(new GuessNumberEnv(), { tools: [createEchoTool()] });
 * const { steps } = await runEpisode(env, ['<tool_call>{"name": "echo", "arguments": {"text": "hi", "image": 0}}</tool_call>']);
 */
export function createEchoTool({ name = 'echo' }: EchoToolSettings = {}): Tool<EchoToolInput> {
  return defineTool<EchoToolInput>({
    name,
    description: 'Says the text back; with "image": i it also shows image i of the episode again.',
    inputSchema: input,
    async execute({ text, image }, { images }) {
      if (image === undefined) return { text };
      const picked = images[image];
      if (picked === undefined) throw new Error(`expected an image index below ${images.length} (the episode's images), received ${image}`);
      return { text, images: [picked] };
    },
  });
}

/** The echo tool with its default name, `echo`. */
export const echoTool: Tool<EchoToolInput> = createEchoTool();
