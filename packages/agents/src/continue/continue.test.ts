import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { partialAssistantText, type Agent, type AgentActOptions, type Message } from '@saccade/spec';
import { describe, expect, it } from 'vitest';
import { applyStop, continueAnswer, withoutPartialAnswer } from './continue-answer';
import { CONTINUE_FINAL_MESSAGE_BODY, createContinuingOpenAIAgent } from './continuing-openai-agent';

describe('the continuation convention', () => {
  it('a last assistant message is the partial answer; stop strings cut after the first match', () => {
    const messages: Message[] = [{ role: 'user', content: 'Q' }, { role: 'assistant', content: [{ type: 'text', text: '<think>\n' }] }];
    expect([partialAssistantText(messages), partialAssistantText(messages.slice(0, 1))]).toEqual(['<think>\n', undefined]);
    expect(withoutPartialAnswer(messages)).toEqual(messages.slice(0, 1));
    expect(applyStop('step one\nstep two\n</think><answer>B</answer>', ['</answer>', '\n'])).toBe('step one\n');
    expect(applyStop('no stop here', ['\n'])).toBe('no stop here');
  });

  it('continueAnswer replaces a trailing partial answer by the prefix; an empty prefix asks afresh', async () => {
    const seen: Message[][] = [];
    const agent: Agent = {
      specificationVersion: 'v1',
      id: 'recorder',
      async act({ messages }: AgentActOptions) {
        seen.push(messages.slice());
        return { outputs: [{ text: 'on' }] };
      },
    };
    const question: Message = { role: 'user', content: 'Where?' };
    await continueAnswer(agent, [question, { role: 'assistant', content: 'old' }], '<think>\nLook ');
    await continueAnswer(agent, [question], '');
    expect(seen).toEqual([[question, { role: 'assistant', content: '<think>\nLook ' }], [question]]);
  });
});

describe('createContinuingOpenAIAgent', () => {
  it('asks vLLM to continue the final message only when there is one', async () => {
    const bodies: Record<string, unknown>[] = [];
    const server = createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: 'on (3, 4).' }, finish_reason: 'stop' }] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const agent = createContinuingOpenAIAgent({ baseURL: `http://127.0.0.1:${port}/v1`, model: 'qwen', extraBody: { top_k: 20 } });
      const question: Message[] = [{ role: 'user', content: 'Where?' }];
      expect((await continueAnswer(agent, question, '<think>\nLook ')).outputs[0]!.text).toBe('on (3, 4).');
      await agent.act({ messages: question });
      expect(bodies[0]).toMatchObject({ ...CONTINUE_FINAL_MESSAGE_BODY, top_k: 20, messages: [{ role: 'user', content: 'Where?' }, { role: 'assistant', content: '<think>\nLook ' }] });
      expect(bodies[1]).toEqual({ model: 'qwen', messages: [{ role: 'user', content: 'Where?' }], top_k: 20 });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
