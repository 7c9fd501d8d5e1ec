// A plug-in tool package as a user writes one outside the workspace: one tool, named in package.json.
import { defineTool } from '@saccade/core';
import { z } from 'zod';

export const echoTool = defineTool({
  name: 'echo_text',
  description: 'Repeats the text it is given.',
  inputSchema: z.object({ text: z.string().describe('What to repeat.') }),
  async execute({ text }) {
    return { text: `echo: ${text}` };
  },
});
