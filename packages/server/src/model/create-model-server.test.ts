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

/** A PNG whose header declares `width` × `height` (8-bit grey) over a few bytes of image data. */
function declaredPng(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const check = Buffer.alloc(4);
    check.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, check]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])), chunk('IEND', Buffer.alloc(0))]);
}

it('answers an image that declares 20000 × 20000 pixels (a decompression bomb) with 400, and keeps serving', async () => {
  const bomb = `data:image/png;base64,${declaredPng(20_000, 20_000).toString('base64')}`;
  const response = await post(`${url}/v1/chat/completions`, { model: 'tiny-vlm', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: bomb } }] }] });
  expect(response.status).toBe(400);
  expect(response.json.error.code).toBe('invalid_image');
  expect(response.json.error.message).toBe('Image 1 of the messages could not be decoded: Invalid image (from bytes): expected at most 67108864 pixels, received a header claiming 20000 × 20000.');
  expect((await post(`${url}/v1/chat/completions`, { model: 'tiny-vlm', messages: messages(), max_tokens: 2 })).status).toBe(200);
});

it('generates off the event loop: /health answers during generation and requests past the queue get 503', async () => {
  const busy = createModelServer({ preset: 'tiny', modelName: 'tiny-vlm', logger: false, maxQueue: 2 });
  const base = await busy.listen(0);
  try {
    const body = { model: 'tiny-vlm', messages: messages(), max_tokens: 64, n: 8, temperature: 1, seed: 3 };
    const first = post(`${base}/v1/chat/completions`, body);
    const second = post(`${base}/v1/chat/completions`, body);
    // Wait until both are queued on the generation thread.
    for (let tries = 0; tries < 200 && (await get(`${base}/health`)).json.queued < 2; tries++) await new Promise((resolve) => setTimeout(resolve, 5));
    const health = await get(`${base}/health`);
    expect(health.json).toMatchObject({ status: 'ok', queued: 2 });
    const refused = await post(`${base}/v1/chat/completions`, body);
    expect(refused.status).toBe(503);
    expect(refused.json.error).toMatchObject({ type: 'server_error', message: 'The model server is busy: 2 requests are queued (limit 2); retry later.' });
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);
  } finally {
    await busy.close();
  }
});
