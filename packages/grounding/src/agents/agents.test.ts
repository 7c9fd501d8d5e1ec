import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { applyChatTemplate, decodeImageData, imageTokenCount, VisionLanguageModel } from '@saccade/models';
import type { Message } from '@saccade/spec';
import { initTensor } from '@saccade/tensor';
import { beforeAll, describe, expect, it } from 'vitest';
import { squareTask } from '../../test/scenes';
import { prepareTask, singleTurnMessages } from '../generate/prepare-task';
import { parseGroundedResponse } from '../rewards/grounded-turn';
import { applyStop, continueAnswer, partialAnswer } from './continue-answer';
import { createContinuingModelAgent } from './continuing-model-agent';
import { CONTINUE_FINAL_MESSAGE_BODY, createContinuingOpenAIAgent } from './continuing-openai-agent';
import { createNoisyGroundingAgent } from './noisy-grounding-agent';
import { TaskLookup } from './task-lookup';

beforeAll(() => initTensor());

describe('the continuation convention', () => {
  it('a last assistant message is the partial answer; stop strings cut after the first match', () => {
    const messages: Message[] = [{ role: 'user', content: 'Q' }, { role: 'assistant', content: [{ type: 'text', text: '<think>\n' }] }];
    expect([partialAnswer(messages), partialAnswer(messages.slice(0, 1))]).toEqual(['<think>\n', undefined]);
    expect(applyStop('step one\nstep two\n</think><answer>B</answer>', ['</answer>', '\n'])).toBe('step one\n');
    expect(applyStop('no stop here', ['\n'])).toBe('no stop here');
  });
});

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

describe('createContinuingModelAgent', () => {
  it('continues the partial answer: the prompt ends with <|assistant|> and the prefix, not closed', async () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 0 });
    const task = await squareTask('square-1', 400, 300);
    // A short chat: the tiny model's context is 256 tokens.
    const messages: Message[] = [{ role: 'user', content: [{ type: 'image', image: (await prepareTask(task)).image }, { type: 'text', text: 'Colour?' }] }];
    const agent = createContinuingModelAgent({ model, seed: 5, maxTokens: 6, temperature: 0 });
    const { outputs, usage } = await continueAnswer(agent, messages, '<think>\n(1', { n: 1 });
    // The same greedy continuation, from the tokens built by hand.
    const sequence = applyChatTemplate(model.tokenizer, messages, { imageTokens: imageTokenCount(model.config), addGenerationPrompt: true });
    const tokens = [...sequence.tokens, ...model.tokenizer.encode('<think>\n(1')];
    const images = await Promise.all(sequence.images.map((image) => decodeImageData(image, model.config.imageSize)));
    const expected = (await model.generate({ prompts: [{ tokens, images }], temperature: 0, maxTokens: 6, seed: 5 }))[0]![0]!;
    expect(outputs[0]!.tokens).toHaveLength(6);
    expect(outputs[0]!.text).toBe(expected.text);
    expect(usage?.inputTokens).toBe(tokens.length);
    model.dispose();
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
