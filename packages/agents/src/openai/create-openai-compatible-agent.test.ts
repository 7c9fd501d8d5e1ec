import { fromDataUrl, imageSize, renderSvg } from '@saccade/image';
import { InvalidArgumentError, TimeoutError, type ImageData, type Message } from '@saccade/spec';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { completion, sendJson, startChatServer, type ChatServer, type Handler } from '../__fixtures__/chat-server';
import { createLimiter } from '../create-limiter';
import { AgentRequestError } from '../errors/agent-request-error';
import { AgentResponseError } from '../errors/agent-response-error';
import { createOpenAICompatibleAgent, type OpenAICompatibleAgentSettings } from './create-openai-compatible-agent';
import { backoffDelayMs, retryAfterMs } from './post-with-retry';

let server: ChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(handler: Handler): Promise<ChatServer> {
  server = await startChatServer(handler);
  return server;
}

function agentFor(chat: ChatServer, settings: Partial<OpenAICompatibleAgentSettings> = {}) {
  return createOpenAICompatibleAgent({ baseURL: chat.baseURL, model: 'test-model', apiKey: 'sk-test', retryDelayMs: 5, maxRetryDelayMs: 20, ...settings });
}

const hello: Message[] = [{ role: 'user', content: 'Hello' }];

let square: ImageData;
beforeAll(async () => {
  const image = await renderSvg('<svg xmlns="http://www.w3.org/2000/svg" width="64" height="48"><rect width="64" height="48" fill="#c33"/></svg>');
  square = { ...image, width: 64, height: 48 };
});

describe('createOpenAICompatibleAgent', () => {
  it('sends images as data URLs in order, with the model, key and sampling settings', async () => {
    const chat = await serve((_request, response) => sendJson(response, completion(['<answer>Left</answer>'])));
    const agent = agentFor(chat, { temperature: 0.7, topP: 0.95, maxTokens: 200, extraBody: { top_k: 20 } });
    const messages: Message[] = [
      { role: 'system', content: 'You play FrozenLake.' },
      { role: 'user', content: [{ type: 'text', text: 'Look: ' }, { type: 'image', image: square }, { type: 'text', text: ' and act.' }] },
    ];
    const response = await agent.act({ messages });
    expect(response.outputs).toEqual([{ text: '<answer>Left</answer>', finishReason: 'stop' }]);
    expect(response.usage).toEqual({ inputTokens: 11, outputTokens: 7 });
    const [request] = chat.requests;
    expect(request?.url).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe('Bearer sk-test');
    expect(request?.body).toMatchObject({ model: 'test-model', temperature: 0.7, top_p: 0.95, max_tokens: 200, top_k: 20 });
    expect(request?.body).not.toHaveProperty('n');
    const sent = request?.body.messages as Array<{ role: string; content: unknown }>;
    expect(sent[0]).toEqual({ role: 'system', content: 'You play FrozenLake.' });
    const parts = sent[1]?.content as Array<Record<string, unknown>>;
    expect(parts.map((part) => part.type)).toEqual(['text', 'image_url', 'text']);
    const url = (parts[1]?.image_url as { url: string }).url;
    expect(url.startsWith('data:image/png;base64,')).toBe(true);
    expect(Buffer.from(fromDataUrl(url).data).equals(Buffer.from(square.data))).toBe(true);
  });

  it('resizes images larger than maxImagePixels, keeping the aspect ratio', async () => {
    const chat = await serve((_request, response) => sendJson(response, completion(['ok'])));
    const agent = agentFor(chat, { maxImagePixels: 768 });
    await agent.act({ messages: [{ role: 'user', content: [{ type: 'image', image: square }] }] });
    const parts = (chat.requests[0]?.body.messages as Array<{ content: Array<{ image_url: { url: string } }> }>)[0]!.content;
    const size = await imageSize(fromDataUrl(parts[0]!.image_url.url));
    expect(size).toEqual({ width: 32, height: 24 });
  });

  it('asks for n samples, forwards stop strings and puts a matched stop string back', async () => {
    const chat = await serve((request, response) => {
      const n = request.body.n as number;
      sendJson(response, {
        choices: Array.from({ length: n }, (_, index) => ({
          index: n - 1 - index, // out of order on purpose
          message: { content: `<answer>${n - 1 - index}</answer>` },
          finish_reason: index === 0 ? 'length' : 'stop',
          stop_reason: index === 0 ? null : '</answer>',
        })),
      });
    });
    const agent = agentFor(chat);
    const { outputs, usage } = await agent.act({ messages: hello, n: 3, stop: ['</answer>'] });
    expect(chat.requests[0]?.body).toMatchObject({ n: 3, stop: ['</answer>'] });
    expect(outputs.map((output) => output.text)).toEqual(['<answer>0</answer>', '<answer>1</answer>', '<answer>2</answer>']);
    expect(outputs.map((output) => output.finishReason)).toEqual(['stop', 'stop', 'length']);
    expect(usage).toBeUndefined();
  });

  it("restores a closing-tag stop that OpenAI's API dropped, and only that", async () => {
    // As OpenAI's API does: generation ends at the first stop string, which the content leaves
    // out; finish_reason "stop" both then and at the end of the sequence; no stop_reason field.
    const writes = [
      '<think>2 + 3.</think>\n<tool_call>{"name": "calculator", "arguments": {"expression": "2+3"}}</tool_call>\n<tool_response>9</tool_response>',
      '<think>It is 5.</think><answer>5</answer>',
      '<tool_call>{"name": "zoom"}</tool_call> and more',
      '<tool_call>{"name": "zoom"}</tool_call> and more',
    ];
    const chat = await serve((request, response, index) => {
      const text = writes[index]!;
      const stop = (request.body.stop as string[] | undefined) ?? [];
      const cut = Math.min(...stop.map((string) => text.indexOf(string)).filter((at) => at >= 0), text.length);
      sendJson(response, { id: `chatcmpl-${index}`, object: 'chat.completion', model: 'test-model', choices: [{ index: 0, message: { role: 'assistant', content: text.slice(0, cut) }, finish_reason: 'stop' }] });
    });
    const agent = agentFor(chat);
    const texts: string[] = [];
    for (let turn = 0; turn < 3; turn++) texts.push((await agent.act({ messages: hello, stop: ['</answer>', '</tool_call>'] })).outputs[0]!.text);
    expect(chat.requests.map((request) => request.body.stop)).toEqual([['</answer>', '</tool_call>'], ['</answer>', '</tool_call>'], ['</answer>', '</tool_call>']]);
    expect(texts).toEqual([
      '<think>2 + 3.</think>\n<tool_call>{"name": "calculator", "arguments": {"expression": "2+3"}}</tool_call>',
      '<think>It is 5.</think><answer>5</answer>',
      '<tool_call>{"name": "zoom"}</tool_call>',
    ]);
    // restoreStop: false leaves the server's text as it came.
    const raw = await agentFor(chat, { restoreStop: false }).act({ messages: hello, stop: ['</tool_call>'] });
    expect(raw.outputs[0]!.text).toBe('<tool_call>{"name": "zoom"}');
  });

  it('does not guess when the server says no stop string matched (vLLM stop_reason null), nor for stops that are not closing tags', async () => {
    const chat = await serve((_request, response, index) =>
      sendJson(response, { choices: [{ index: 0, message: { content: index === 0 ? '<tool_call>{"name": "zoom"' : 'Step 1' }, finish_reason: 'stop', ...(index === 0 ? { stop_reason: null } : {}) }] }),
    );
    const agent = agentFor(chat);
    expect((await agent.act({ messages: hello, stop: ['</tool_call>'] })).outputs[0]!.text).toBe('<tool_call>{"name": "zoom"');
    expect((await agent.act({ messages: hello, stop: ['\nStep'] })).outputs[0]!.text).toBe('Step 1');
  });

  it('draws n samples as separate requests for servers without n', async () => {
    const chat = await serve((_request, response, index) => sendJson(response, completion([`sample ${index}`])));
    const agent = agentFor(chat, { sampling: 'separate-requests' });
    const { outputs, usage } = await agent.act({ messages: hello, n: 3 });
    expect(chat.requests).toHaveLength(3);
    expect(chat.requests.every((request) => request.body.n === 1)).toBe(true);
    expect(outputs.map((output) => output.text).sort()).toEqual(['sample 0', 'sample 1', 'sample 2']);
    expect(usage).toEqual({ inputTokens: 33, outputTokens: 21 });
  });

  it('fails clearly when a server returns fewer choices than n', async () => {
    const chat = await serve((_request, response) => sendJson(response, completion(['only one'])));
    const error = await agentFor(chat).act({ messages: hello, n: 2 }).catch((caught: unknown) => caught);
    expect(AgentResponseError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain("sampling: 'separate-requests'");
  });

  it('returns token log-probabilities, and token ids when the server writes them', async () => {
    const chat = await serve((_request, response) =>
      sendJson(response, completion(['ab'], {
        choices: [{ index: 0, message: { content: 'ab' }, finish_reason: 'stop', logprobs: { content: [{ token: 'token_id:64', logprob: -0.1 }, { token: 'token_id:65', logprob: -0.5 }] } }],
      })),
    );
    const { outputs } = await agentFor(chat).act({ messages: hello, logprobs: true });
    expect(chat.requests[0]?.body.logprobs).toBe(true);
    expect(outputs[0]).toEqual({ text: 'ab', finishReason: 'stop', logprobs: [-0.1, -0.5], tokens: [64, 65] });
  });

  it('keeps the system message and the last K exchanges', async () => {
    const chat = await serve((_request, response) => sendJson(response, completion(['ok'])));
    const messages: Message[] = [
      { role: 'system', content: 'S' },
      { role: 'user', content: 'u0' },
      { role: 'assistant', content: 'a0' },
      { role: 'user', content: 'u1' },
      { role: 'assistant', content: 'a1' },
      { role: 'user', content: 'u2' },
    ];
    await agentFor(chat, { historyWindow: 1 }).act({ messages });
    const sent = (chat.requests[0]?.body.messages as Array<{ content: string }>).map((message) => message.content);
    expect(sent).toEqual(['S', 'u1', 'a1', 'u2']);
  });

  it('retries a 429, honouring Retry-After, then succeeds', async () => {
    const chat = await serve((_request, response, index) => {
      if (index === 0) sendJson(response, { error: 'rate limited' }, 429, { 'retry-after-ms': '150' });
      else sendJson(response, completion(['done']));
    });
    const retries: number[] = [];
    const agent = agentFor(chat, { onRetry: ({ delayMs }) => retries.push(delayMs) });
    const started = performance.now();
    const { outputs } = await agent.act({ messages: hello });
    expect(outputs[0]?.text).toBe('done');
    expect(chat.requests).toHaveLength(2);
    expect(retries).toEqual([150]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('throws AgentRequestError with status, attempts and body after the last retry of a 500', async () => {
    const chat = await serve((_request, response) => sendJson(response, { error: { message: 'CUDA out of memory' } }, 500));
    const error = await agentFor(chat, { maxRetries: 2 }).act({ messages: hello }).catch((caught: unknown) => caught);
    expect(AgentRequestError.isInstance(error)).toBe(true);
    const requestError = error as AgentRequestError;
    expect(requestError).toMatchObject({ name: 'Saccade_AgentRequestError', status: 500, attempts: 3, failure: 'http-status', url: `${chat.baseURL}/chat/completions` });
    expect(requestError.bodyExcerpt).toContain('CUDA out of memory');
    expect(requestError.message).toContain('failed after 3 attempts: HTTP 500');
    expect(chat.requests).toHaveLength(3);
  });

  it('reads the API key from the variable named by apiKeyEnv, and says so when the server refuses', async () => {
    const chat = await serve((request, response) =>
      request.headers.authorization === 'Bearer sk-from-env' ? sendJson(response, completion(['ok'])) : sendJson(response, { error: 'invalid api key' }, 401),
    );
    const variable = 'SACCADE_TEST_API_KEY';
    process.env[variable] = 'sk-from-env';
    try {
      const agent = createOpenAICompatibleAgent({ baseURL: chat.baseURL, model: 'm', apiKeyEnv: variable });
      expect((await agent.act({ messages: hello })).outputs[0]?.text).toBe('ok');
      process.env[variable] = 'sk-revoked';
      const refused = await createOpenAICompatibleAgent({ baseURL: chat.baseURL, model: 'm', apiKeyEnv: variable }).act({ messages: hello }).catch((caught: unknown) => caught);
      expect(refused).toMatchObject({ status: 401, attempts: 1 });
      expect((refused as Error).message).toContain(`The server refused the API key read from $${variable}.`);
      delete process.env[variable];
      const agentWithout = createOpenAICompatibleAgent({ baseURL: chat.baseURL, model: 'm', apiKeyEnv: variable });
      const missing = await agentWithout.act({ messages: hello }).catch((caught: unknown) => caught);
      expect(AgentRequestError.isInstance(missing)).toBe(true);
      expect((missing as Error).message).toContain(`No API key was sent: set apiKey, or the environment variable ${variable} (apiKeyEnv).`);
      expect(chat.requests.at(-1)?.headers.authorization).toBeUndefined();
    } finally {
      delete process.env[variable];
    }
  });

  it('does not retry a 400', async () => {
    const chat = await serve((_request, response) => sendJson(response, { error: 'bad model' }, 400));
    const error = await agentFor(chat).act({ messages: hello }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 400, attempts: 1 });
    expect(chat.requests).toHaveLength(1);
  });

  it('times out each attempt and says so after the retries', async () => {
    const chat = await serve(() => undefined); // never answers
    const error = await agentFor(chat, { timeoutMs: 80, maxRetries: 1 }).act({ messages: hello }).catch((caught: unknown) => caught);
    expect(AgentRequestError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ failure: 'timeout', attempts: 2 });
    expect(TimeoutError.isInstance((error as AgentRequestError).cause)).toBe(true);
    expect((error as Error).message).toContain('within 80 ms');
    expect(chat.requests).toHaveLength(2);
  });

  it('reports connection errors after the retries', async () => {
    const chat = await serve(() => undefined);
    const baseURL = chat.baseURL;
    await chat.close();
    server = undefined;
    const error = await createOpenAICompatibleAgent({ baseURL, model: 'm', maxRetries: 1, retryDelayMs: 1 }).act({ messages: hello }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'Saccade_AgentRequestError', failure: 'connection', attempts: 2, status: undefined });
    expect((error as Error).message).toMatch(/connection error/);
  });

  it('rejects malformed JSON with what was expected and what came', async () => {
    const chat = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"choices": [ oops');
    });
    const error = await agentFor(chat).act({ messages: hello }).catch((caught: unknown) => caught);
    expect(AgentResponseError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('expected JSON');
    expect((error as Error).message).toContain('{"choices": [ oops');
    expect(chat.requests).toHaveLength(1);
  });

  it('rejects JSON that is not a chat completion, naming the field', async () => {
    const chat = await serve((_request, response) => sendJson(response, { choices: [{ message: { content: 42 } }] }));
    const error = await agentFor(chat).act({ messages: hello }).catch((caught: unknown) => caught);
    expect(AgentResponseError.isInstance(error)).toBe(true);
    expect((error as AgentResponseError).received).toContain('choices.0.message.content');
  });

  it('cancels the request in flight when the signal aborts', async () => {
    const chat = await serve(() => undefined);
    const controller = new AbortController();
    const pending = agentFor(chat, { timeoutMs: 10_000 }).act({ messages: hello, signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 60));
    const started = performance.now();
    controller.abort();
    const error = await pending.catch((caught: unknown) => caught);
    expect((error as Error).name).toBe('AbortError');
    expect(performance.now() - started).toBeLessThan(500);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(chat.closedEarly).toBe(1);
    expect(chat.requests).toHaveLength(1);
  });

  it('cancels a backoff wait when the signal aborts', async () => {
    const chat = await serve((_request, response) => sendJson(response, {}, 503, { 'retry-after': '30' }));
    const controller = new AbortController();
    const agent = agentFor(chat, { onRetry: () => setTimeout(() => controller.abort(new Error('stop now')), 20) });
    const started = performance.now();
    const error = await agent.act({ messages: hello, signal: controller.signal }).catch((caught: unknown) => caught);
    expect((error as Error).message).toBe('stop now');
    expect(performance.now() - started).toBeLessThan(1000);
    expect(chat.requests).toHaveLength(1);
  });

  it('cancels a call still waiting for a limiter slot', async () => {
    const chat = await serve(() => undefined);
    const agent = agentFor(chat, { concurrency: 1, timeoutMs: 10_000 });
    const busy = new AbortController();
    const first = agent.act({ messages: hello, signal: busy.signal }).catch((caught: unknown) => caught);
    const controller = new AbortController();
    const queued = agent.act({ messages: hello, signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 40));
    controller.abort();
    await expect(queued).rejects.toMatchObject({ name: 'AbortError' });
    busy.abort();
    expect(((await first) as Error).name).toBe('AbortError');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(chat.requests).toHaveLength(1);
  });

  it('shares one limiter between agents', async () => {
    const chat = await serve((_request, response) => {
      setTimeout(() => sendJson(response, completion(['ok'])), 20);
    });
    const limiter = createLimiter(2);
    const first = agentFor(chat, { concurrency: limiter });
    const second = agentFor(chat, { concurrency: limiter, model: 'other' });
    await Promise.all([1, 2, 3].flatMap(() => [first.act({ messages: hello }), second.act({ messages: hello })]));
    expect(chat.requests).toHaveLength(6);
    expect(chat.maxInFlight).toBe(2);
  });

  it('validates its settings at the boundary', () => {
    expect(() => createOpenAICompatibleAgent({ baseURL: 'localhost:8000', model: 'm' })).toThrow(InvalidArgumentError);
    expect(() => createOpenAICompatibleAgent({ baseURL: 'http://localhost:8000/v1', model: '' })).toThrow(/model/);
    expect(() => createOpenAICompatibleAgent({ baseURL: 'http://localhost:8000/v1', model: 'm', maxRetries: -1 })).toThrow(/maxRetries/);
  });
});

describe('retry timing', () => {
  it('reads Retry-After as seconds, an HTTP date or retry-after-ms', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }))).toBe(2000);
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250' }))).toBe(250);
    expect(retryAfterMs(new Headers({ 'retry-after': new Date(10_000).toUTCString() }), 4_000)).toBe(6000);
    expect(retryAfterMs(new Headers())).toBeUndefined();
  });

  it('backs off exponentially with jitter, capped', () => {
    const policy = { retryDelayMs: 100, maxRetryDelayMs: 1000 };
    expect([1, 2, 3, 4, 5].map((retry) => backoffDelayMs(retry, policy, () => 0))).toEqual([50, 100, 200, 400, 500]);
    expect(backoffDelayMs(2, policy, () => 0.999_999)).toBeCloseTo(200, 2);
  });
});
