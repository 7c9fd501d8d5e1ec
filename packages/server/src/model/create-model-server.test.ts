import { createOpenAICompatibleAgent } from '@saccade/agents';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { get, post } from '../../test/http';
import type { SaccadeServer } from '../http/create-http-service';
import { createModelServer } from './create-model-server';

let server: SaccadeServer;
let url: string;
let image: string;

beforeAll(async () => {
  image = `data:image/png;base64,${(await sharp({ create: { width: 64, height: 64, channels: 3, background: '#2040ff' } }).png().toBuffer()).toString('base64')}`;
  server = createModelServer({ preset: 'tiny', modelName: 'tiny-vlm', logger: false, maxTokens: 8 });
  url = await server.listen(0);
});

afterAll(async () => {
  await server.close();
});

const messages = () => [
  { role: 'system', content: 'Answer.' },
  { role: 'user', content: [{ type: 'text', text: 'Look: ' }, { type: 'image_url', image_url: { url: image } }, { type: 'text', text: ' Which way?' }] },
];

it('lists its model', async () => {
  const models = await get(`${url}/v1/models`);
  expect(models.status).toBe(200);
  expect(models.json.data[0]).toMatchObject({ id: 'tiny-vlm', object: 'model', owned_by: 'saccade' });
});

it('answers chat completions with an image, n samples and logprobs, reproducibly for a seed', async () => {
  const body = { model: 'tiny-vlm', messages: messages(), n: 3, max_tokens: 6, temperature: 1, logprobs: true, seed: 5 };
  const response = await post(`${url}/v1/chat/completions`, body);
  expect(response.status).toBe(200);
  const completion = response.json;
  expect(completion.object).toBe('chat.completion');
  expect(completion.choices).toHaveLength(3);
  for (const [index, choice] of completion.choices.entries()) {
    expect(choice.index).toBe(index);
    expect(choice.message.role).toBe('assistant');
    expect(typeof choice.message.content).toBe('string');
    expect(['stop', 'length']).toContain(choice.finish_reason);
    expect(choice.logprobs.content.length).toBeGreaterThan(0);
    expect(choice.logprobs.content.length).toBeLessThanOrEqual(6);
    for (const token of choice.logprobs.content) expect(token.logprob).toBeLessThanOrEqual(0);
  }
  expect(completion.usage.completion_tokens).toBe(completion.choices.reduce((sum: number, choice: { logprobs: { content: unknown[] } }) => sum + choice.logprobs.content.length, 0));
  expect(completion.usage.prompt_tokens).toBeGreaterThan(16);
  const again = await post(`${url}/v1/chat/completions`, body);
  expect(again.json.choices.map((choice: { message: { content: string } }) => choice.message.content)).toEqual(completion.choices.map((choice: { message: { content: string } }) => choice.message.content));
});

it('cuts the text at a stop string as OpenAI does, and serves the agents package client', async () => {
  const first = await post(`${url}/v1/chat/completions`, { model: 'tiny-vlm', messages: messages(), max_tokens: 8, seed: 1 });
  const text: string = first.json.choices[0].message.content;
  expect(text.length).toBeGreaterThan(1);
  const stop = text.slice(1, 2);
  const cut = await post(`${url}/v1/chat/completions`, { model: 'tiny-vlm', messages: messages(), max_tokens: 8, seed: 1, stop: [stop] });
  expect(cut.json.choices[0].message.content).toBe(text.slice(0, text.indexOf(stop)));
  expect(cut.json.choices[0]).toMatchObject({ finish_reason: 'stop', stop_reason: stop });

  const agent = createOpenAICompatibleAgent({ baseURL: `${url}/v1`, model: 'tiny-vlm', maxTokens: 5, maxRetries: 0 });
  const png = new Uint8Array(Buffer.from(image.split(',')[1]!, 'base64'));
  const answer = await agent.act({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Go' }, { type: 'image', image: { data: png, mediaType: 'image/png' } }] }], n: 2, logprobs: true });
  expect(answer.outputs).toHaveLength(2);
  expect(answer.usage?.inputTokens).toBeGreaterThan(0);
});

it('refuses unknown models, streaming, remote images, bad bodies and too-long prompts with OpenAI-style errors', async () => {
  const unknown = await post(`${url}/v1/chat/completions`, { model: 'gpt-4o', messages: messages() });
  expect(unknown.status).toBe(404);
  expect(unknown.json.error).toMatchObject({ code: 'model_not_found', type: 'invalid_request_error' });
  expect((await post(`${url}/v1/chat/completions`, { model: 'tiny-vlm', messages: messages(), stream: true })).status).toBe(400);
  const remote = await post(`${url}/v1/chat/completions`, { model: 'tiny-vlm', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'http://example.com/a.png' } }] }] });
  expect(remote.status).toBe(400);
  expect(remote.json.error.message).toContain('not fetched');
  const badN = await post(`${url}/v1/chat/completions`, { model: 'tiny-vlm', messages: messages(), n: 0 });
  expect(badN.status).toBe(400);
  expect(badN.json.error.message).toContain('n:');
  const long = await post(`${url}/v1/chat/completions`, { model: 'tiny-vlm', messages: [{ role: 'user', content: 'x'.repeat(2000) }] });
  expect(long.status).toBe(400);
  expect(long.json.error.code).toBe('context_length_exceeded');
  expect((await get(`${url}/health`)).json).toMatchObject({ status: 'ok', loaded: true });
});
