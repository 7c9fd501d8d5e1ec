import { runTool } from '@saccade/core';
import { startStandInServer, type StandInServer } from '@saccade/core/testing';
import { renderSvg } from '@saccade/image';
import type { ImageData } from '@saccade/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRemoteModelTool } from './remote-model-tool';
import { createRemoteVlmTool, parseVlmBoxes, parseVlmTable } from './remote-vlm-tool';

// An OpenAI-compatible server as vLLM answers: it records each request and replies with the next answer.
const answers: string[] = [];
let server: StandInServer;
let base: string;
let image: ImageData;

beforeAll(async () => {
  image = await renderSvg('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><rect width="200" height="100" fill="#fff"/></svg>');
  server = await startStandInServer(({ path, body }) => {
    if (path === '/v1/models') return { json: { object: 'list', data: [{ id: 'Qwen/Qwen2.5-VL-7B-Instruct', object: 'model' }] } };
    if (path === '/plain') return { json: { text: `got ${body.length} bytes` } };
    return { json: { id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: answers.shift() ?? '' }, finish_reason: 'stop' }] } };
  });
  base = server.url;
});
afterAll(() => server.close());

const call = async (tool: ReturnType<typeof createRemoteVlmTool>, input: Record<string, unknown>) => {
  const result = await runTool(tool, input, { images: [image] });
  if (!result.ok) throw new Error(result.message);
  return JSON.parse(result.result.text!) as Record<string, unknown>;
};

describe('remote-vlm (OpenAI chat completions)', () => {
  it('asks the served model for a box with the grounding template and parses the JSON answer', async () => {
    process.env['SACCADE_TEST_KEY'] = 'sk-test';
    const tool = createRemoteVlmTool({ url: `${base}/v1`, apiKeyEnv: 'SACCADE_TEST_KEY', maxTokens: 64 });
    server.requests.length = 0;
    answers.push('```json\n{"bbox_2d": [12, 20, 88, 64], "label": "red square"}\n```');
    expect(await call(tool, { task: 'grounding', query: 'the red square' })).toEqual({
      task: 'grounding',
      boxes: [{ bbox: [12, 20, 88, 64], label: 'red square' }],
      count: 1,
      raw: '```json\n{"bbox_2d": [12, 20, 88, 64], "label": "red square"}\n```',
    });
    expect(server.requests.map(({ method, path }) => `${method} ${path}`)).toEqual(['GET /v1/models', 'POST /v1/chat/completions']);
    const sent = server.requests[1]!;
    expect(sent.headers.authorization).toBe('Bearer sk-test');
    expect(sent.json).toEqual({
      model: 'Qwen/Qwen2.5-VL-7B-Instruct',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image_url', image_url: { url: expect.stringMatching(/^data:image\/png;base64,/) } },
            { type: 'text', text: 'Locate "the red square" in the image (200×100 pixels). Answer with JSON only: {"bbox_2d": [x1, y1, x2, y2], "label": "the red square"} in pixels.' },
          ],
        },
      ],
      max_tokens: 64,
      temperature: 0,
    });
  });

  it('detection, chart_to_table and ask parse their answers; the model is asked for once', async () => {
    const tool = createRemoteVlmTool({ url: `${base}/v1/`, model: 'served' });
    server.requests.length = 0;
    answers.push('[{"bbox_2d": [1, 2, 30, 40], "label": "cat"}, {"bbox_2d": [50, 10, 90, 60], "label": "dog"}]');
    expect(await call(tool, { task: 'detection', query: 'animals' })).toMatchObject({ count: 2, boxes: [{ bbox: [1, 2, 30, 40], label: 'cat' }, { bbox: [50, 10, 90, 60], label: 'dog' }] });
    answers.push('| Year | Sales |\n|---|---|\n| 2020 | 70.5 |\n| 2021 | 81 |');
    expect(await call(tool, { task: 'chart_to_table' })).toMatchObject({ columns: ['Year', 'Sales'], rows: [['2020', '70.5'], ['2021', '81']] });
    answers.push(' Two. ');
    expect(await call(tool, { task: 'ask', query: 'How many animals?' })).toMatchObject({ task: 'ask', answer: 'Two.' });
    expect(server.requests.map(({ path }) => path)).toEqual(['/v1/chat/completions', '/v1/chat/completions', '/v1/chat/completions']);
    expect((server.requests[0]!.json as { model: string }).model).toBe('served');
  });

  it('reads boxes in the forms VLMs write them', () => {
    // Qwen2-VL: a 0–1000 grid between box tokens.
    expect(parseVlmBoxes('<|object_ref_start|>the cat<|object_ref_end|><|box_start|>(100,200),(500,800)<|box_end|>', 200, 100)).toEqual([{ bbox: [20, 20, 100, 80], label: 'the cat' }]);
    // Fractions of the image; swapped corners; a bare list.
    expect(parseVlmBoxes('{"bbox": [0.5, 0.5, 0.1, 0.2]}', 200, 100)).toEqual([{ bbox: [20, 20, 100, 50] }]);
    expect(parseVlmBoxes('The box is [10, 20, 30, 40].', 200, 100)).toEqual([{ bbox: [10, 20, 30, 40] }]);
    expect(parseVlmBoxes('I cannot see it.', 200, 100)).toEqual([]);
    expect(parseVlmTable('```csv\nLabel,Value\n"A, B",3\nC,4\n```')).toEqual({ columns: ['Label', 'Value'], rows: [['A, B', '3'], ['C', '4']] });
  });

  it('says what is wrong: no query, a server that is not there, a key that is not set, bad settings', async () => {
    const tool = createRemoteVlmTool({ url: `${base}/v1`, model: 'm' });
    expect(await runTool(tool, { task: 'grounding' }, { images: [image] })).toMatchObject({ ok: false, message: expect.stringContaining('expected a query for grounding') });
    const away = createRemoteVlmTool({ url: 'http://127.0.0.1:9/v1', model: 'm', timeoutMs: 2000 });
    expect(await runTool(away, { task: 'ask', query: 'hi' }, { images: [image] })).toMatchObject({ ok: false, message: expect.stringContaining('could not reach http://127.0.0.1:9/v1/chat/completions') });
    const keyless = createRemoteVlmTool({ url: `${base}/v1`, model: 'm', apiKeyEnv: 'SACCADE_NO_SUCH_KEY' });
    expect(await runTool(keyless, { task: 'ask', query: 'hi' }, { images: [image] })).toMatchObject({ ok: false, message: expect.stringContaining('expected the API key in the environment variable SACCADE_NO_SUCH_KEY') });
    expect(() => createRemoteVlmTool({ url: 'not a url' })).toThrow(/expected remote-vlm settings .*url/);
  });
});

describe('remote-model (plain JSON endpoint)', () => {
  it('posts {tool, arguments, images} to the configured URL', async () => {
    server.requests.length = 0;
    const tool = createRemoteModelTool({ url: `${base}/plain`, sendImages: false });
    const result = await runTool(tool, { caption: 'cat' }, { images: [image] });
    expect(result).toMatchObject({ ok: true, result: { text: 'got 65 bytes' } });
    expect(server.requests[0]!.json).toEqual({ tool: 'remote-model', arguments: { caption: 'cat' }, images: [] });
    const saved = process.env['SACCADE_REMOTE_MODEL_URL'];
    delete process.env['SACCADE_REMOTE_MODEL_URL'];
    try {
      expect(await runTool(createRemoteModelTool(), {}, { images: [image] })).toMatchObject({ ok: false, message: expect.stringContaining('expected the URL of the model endpoint for remote-model') });
    } finally {
      if (saved !== undefined) process.env['SACCADE_REMOTE_MODEL_URL'] = saved;
    }
  });
});
