import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { env } from '@huggingface/transformers';
import { buildMessages } from '@saccade/core';
import { renderSvg } from '@saccade/image';
import { InvalidArgumentError, type ImageData, type Message } from '@saccade/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TINY_QWEN2_VL_VOCAB, TINY_VOCAB, writeTinyQwen2Vl, writeTinySmolVlm } from './__fixtures__/tiny-vlm';
import { createTransformersAgent, type TransformersAgent } from './create-transformers-agent';

async function solid(fill: string, width = 16, height = 12): Promise<ImageData> {
  const image = await renderSvg(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="${width}" height="${height}" fill="${fill}"/></svg>`);
  return { ...image, width, height };
}

const look = (...images: ImageData[]): Message[] => [
  { role: 'system', content: 'You move on a grid.' },
  { role: 'user', content: [...images.map((image) => ({ type: 'image' as const, image })), { type: 'text', text: 'Where now?' }] },
];

const tokenId = (token: (typeof TINY_VOCAB)[number]): number => TINY_VOCAB.indexOf(token);

let folder: string;
let agent: TransformersAgent;
let white: ImageData;
let black: ImageData;

beforeAll(async () => {
  folder = writeTinySmolVlm(join(mkdtempSync(join(tmpdir(), 'saccade-transformers-')), 'TinySmolVLM'));
  agent = await createTransformersAgent({ modelPath: folder, maxTokens: 16 });
  [white, black] = await Promise.all([solid('#fff'), solid('#000')]);
});

afterAll(async () => {
  await agent?.dispose();
});

describe('createTransformersAgent on a tiny SmolVLM export', () => {
  it('loads the folder offline and says what it loaded', () => {
    expect(agent).toMatchObject({ specificationVersion: 'v1', id: 'transformers:TinySmolVLM', modelPath: folder, modelType: 'idefics3' });
    expect(agent.onnxFiles).toEqual(['onnx/vision_encoder.onnx', 'onnx/embed_tokens.onnx', 'onnx/decoder_model_merged.onnx']);
    expect(env.allowRemoteModels).toBe(false);
    expect(env.useFSCache).toBe(false);
  });

  it('sees the image: Right for a bright one, Left for a dark one, with token counts', async () => {
    const bright = await agent.act({ messages: look(white) });
    expect(bright.outputs).toEqual([
      { text: '<answer>Right</answer>', tokens: [tokenId('<answer>'), tokenId('Right'), tokenId('</answer>'), tokenId('<end_of_utterance>')], finishReason: 'stop' },
    ]);
    // "<|im_start|>System: You move on a grid.<end_of_utterance>\nUser:" + 5 image tokens + "Where now?…Assistant:"
    expect(bright.usage?.outputTokens).toBe(4);
    expect(bright.usage?.inputTokens).toBeGreaterThan(5);
    const dark = await agent.act({ messages: look(black) });
    expect(dark.outputs[0]?.text).toBe('<answer>Left</answer>');
    expect(dark.usage?.inputTokens).toBe(bright.usage?.inputTokens);
  });

  it('passes every image in order, each at its own <image> tokens', async () => {
    const two = await agent.act({ messages: look(white, white) });
    const one = await agent.act({ messages: look(white) });
    expect(two.outputs[0]?.text).toBe('<answer>Right</answer>');
    // Each image adds <fake_token_around_image><global-img><image><image><fake_token_around_image>.
    expect((two.usage?.inputTokens ?? 0) - (one.usage?.inputTokens ?? 0)).toBe(5);
    // A bright and a dark image cancel out: the tie goes to the first token, Left.
    expect((await agent.act({ messages: look(white, black) })).outputs[0]?.text).toBe('<answer>Left</answer>');
  });

  it('resizes images larger than maxImagePixels before the processor sees them', async () => {
    const small = await createTransformersAgent({ modelPath: folder, maxImagePixels: 12 });
    try {
      const { outputs } = await small.act({ messages: look(await solid('#fff', 640, 480)) });
      expect(outputs[0]?.text).toBe('<answer>Right</answer>');
    } finally {
      await small.dispose();
    }
  });

  it('stops at a stop string, keeping it, and ignores stop strings in the prompt', async () => {
    const cut = await agent.act({ messages: look(white), stop: ['Right'] });
    expect(cut.outputs[0]).toEqual({ text: '<answer>Right', tokens: [tokenId('<answer>'), tokenId('Right')], finishReason: 'stop' });
    // The history holds "</answer>" already; generation still runs to the answer's own.
    const messages = buildMessages({
      systemPrompt: 'You move on a grid.',
      history: [{ observation: { text: '<image> Where now?', images: [white] }, action: '<answer>Right</answer>' }],
      observation: { text: '<image> Where now?', images: [white] },
    });
    const { outputs } = await agent.act({ messages, stop: ['</answer>'] });
    expect(outputs[0]?.text).toBe('<answer>Right</answer>');
    expect(outputs[0]?.tokens).toHaveLength(3); // stopped before the end-of-utterance token
  });

  it("ends at maxTokens with finishReason 'length'", async () => {
    const { outputs, usage } = await agent.act({ messages: look(white), maxTokens: 2 });
    expect(outputs[0]).toMatchObject({ text: '<answer>Right', finishReason: 'length' });
    expect(usage?.outputTokens).toBe(2);
  });

  it('keeps the system message and the last K exchanges', async () => {
    const history = Array.from({ length: 3 }, () => ({ observation: { text: '<image> Where now?', images: [black] }, action: '<answer>Left</answer>' }));
    const observation = { text: '<image> Where now?', images: [white] };
    const windowed = await createTransformersAgent({ modelPath: folder, historyWindow: 1 });
    try {
      const full = await windowed.act({ messages: buildMessages({ systemPrompt: 'S', history, observation }) });
      const lastOnly = await agent.act({ messages: buildMessages({ systemPrompt: 'S', history: history.slice(-1), observation }) });
      expect(full.usage?.inputTokens).toBe(lastOnly.usage?.inputTokens);
      expect(full.outputs[0]?.text).toBe(lastOnly.outputs[0]?.text);
    } finally {
      await windowed.dispose();
    }
  });

  it('draws n samples with temperature and top-p', async () => {
    const sampler = await createTransformersAgent({ modelPath: folder, seed: 7, temperature: 1 });
    try {
      // After "<answer>" a dark image gives Left 60%, Right 40%.
      const { outputs } = await sampler.act({ messages: look(black), n: 16 });
      expect(outputs).toHaveLength(16);
      const texts = new Set(outputs.map((output) => output.text));
      expect(texts).toEqual(new Set(['<answer>Left</answer>', '<answer>Right</answer>']));
      // top-p 0.5 keeps only the likelier token.
      const nucleus = await sampler.act({ messages: look(black), n: 8, topP: 0.5 });
      expect(new Set(nucleus.outputs.map((output) => output.text))).toEqual(new Set(['<answer>Left</answer>']));
      // Temperature 0 is greedy.
      const greedy = await sampler.act({ messages: look(white), n: 4, temperature: 0 });
      expect(new Set(greedy.outputs.map((output) => output.text))).toEqual(new Set(['<answer>Right</answer>']));
    } finally {
      await sampler.dispose();
    }
  });

  it('cancels a generation in progress and a call waiting its turn', async () => {
    const controller = new AbortController();
    const long = agent.act({ messages: look(white), n: 2000, signal: controller.signal });
    const waiting = new AbortController();
    const queued = agent.act({ messages: look(white), signal: waiting.signal });
    await new Promise((resolve) => setTimeout(resolve, 100));
    waiting.abort();
    await expect(queued).rejects.toMatchObject({ name: 'AbortError' });
    const started = performance.now();
    controller.abort();
    await expect(long).rejects.toMatchObject({ name: 'AbortError' });
    expect(performance.now() - started).toBeLessThan(500);
    // The model is free again.
    expect((await agent.act({ messages: look(white) })).outputs[0]?.text).toBe('<answer>Right</answer>');
    const aborted = AbortSignal.abort();
    await expect(agent.act({ messages: look(white), signal: aborted })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('refuses bad arguments, and calls after dispose', async () => {
    await expect(agent.act({ messages: look(white), n: 0 })).rejects.toThrow(InvalidArgumentError);
    await expect(agent.act({ messages: [] })).rejects.toThrow(/non-empty array of messages/);
    await expect(agent.act({ messages: look(white), topP: 2 })).rejects.toThrow(/topP/);
    await expect(createTransformersAgent({ modelPath: folder, maxTokens: 0 })).rejects.toThrow(/maxTokens/);
    await expect(createTransformersAgent({ modelPath: folder, dtype: 'q5' as never })).rejects.toThrow(/dtype: expected one of auto, fp32, fp16/);
    await expect(createTransformersAgent({ modelPath: '' })).rejects.toThrow(/modelPath/);
    const other = await createTransformersAgent({ modelPath: folder });
    await other.dispose();
    await expect(other.act({ messages: look(white) })).rejects.toThrow(/dispose\(\) was called/);
  });
});

describe('createTransformersAgent on a tiny Qwen2-VL export', () => {
  let qwen: TransformersAgent;
  beforeAll(async () => {
    const qwenFolder = writeTinyQwen2Vl(join(mkdtempSync(join(tmpdir(), 'saccade-transformers-')), 'TinyQwen2VL'));
    qwen = await createTransformersAgent({ modelPath: qwenFolder, maxTokens: 16, maxImagePixels: 64 * 64 });
  });
  afterAll(async () => {
    await qwen?.dispose();
  });

  it('loads with AutoModelForImageTextToText and sees each image', async () => {
    expect(qwen).toMatchObject({ id: 'transformers:TinyQwen2VL', modelType: 'qwen2_vl' });
    const bright = await qwen.act({ messages: look(white) });
    const id = (token: (typeof TINY_QWEN2_VL_VOCAB)[number]) => TINY_QWEN2_VL_VOCAB.indexOf(token);
    expect(bright.outputs[0]).toEqual({ text: '<answer>Right</answer>', tokens: [id('<answer>'), id('Right'), id('</answer>'), id('<|im_end|>')], finishReason: 'stop' });
    expect((await qwen.act({ messages: look(black) })).outputs[0]?.text).toBe('<answer>Left</answer>');
    // Each image is <|vision_start|>, its merged patches (resized to 28×28: 2×2 patches, 1 token), <|vision_end|>.
    // (transformers.js' Qwen2VLImageProcessor alone would read two images as two frames of one.)
    const two = await qwen.act({ messages: look(white, white) });
    expect(two.outputs[0]?.text).toBe('<answer>Right</answer>');
    expect((two.usage?.inputTokens ?? 0) - (bright.usage?.inputTokens ?? 0)).toBe(3);
    expect((await qwen.act({ messages: look(white, black) })).outputs[0]?.text).toBe('<answer>Left</answer>');
  });

  it('plays several turns with images in the history, stopping at a stop string', async () => {
    const messages = buildMessages({
      systemPrompt: 'You move on a grid.',
      history: [{ observation: { text: '<image> Where now?', images: [white] }, action: '<answer>Right</answer>' }],
      observation: { text: 'And now? <image>', images: [white] },
    });
    const { outputs } = await qwen.act({ messages, stop: ['</answer>'], n: 2 });
    expect(outputs.map((output) => output.text)).toEqual(['<answer>Right</answer>', '<answer>Right</answer>']);
    expect(outputs[0]?.tokens).toHaveLength(3);
  });
});
