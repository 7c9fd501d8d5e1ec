import sharp from 'sharp';
import { beforeAll, expect, it } from 'vitest';
import { initBackend } from '../test/helpers';
import type { Message } from '@saccade/spec';
import { applyChatTemplate, createContinuingModelAgent, createModelAgent, decodeImageData, fitPrompt, imageTokenCount, VisionLanguageModel } from './index';

beforeAll(initBackend);

async function png(size: number, colour: { r: number; g: number; b: number }): Promise<Uint8Array> {
  return new Uint8Array(await sharp({ create: { width: size, height: size, channels: 3, background: colour } }).png().toBuffer());
}

it('decodes and box-resizes PNG images to the model size', async () => {
  const image = await decodeImageData({ data: await png(256, { r: 200, g: 10, b: 30 }), mediaType: 'image/png' }, 64);
  expect(image.width).toBe(64);
  expect(Array.from(image.data.slice(0, 3))).toEqual([200, 10, 30]);
  const odd = await decodeImageData({ data: await png(100, { r: 1, g: 2, b: 3 }), mediaType: 'image/png' }, 64);
  expect(odd.data).toHaveLength(64 * 64 * 3);
});

it('acts as a spec Agent over messages with images', async () => {
  const model = VisionLanguageModel.create({ preset: 'tiny' });
  const agent = createModelAgent({ model, maxTokens: 5, seed: 1 });
  expect(agent.specificationVersion).toBe('v1');
  const messages = [
    { role: 'system' as const, content: 'Play.' },
    {
      role: 'user' as const,
      content: [
        { type: 'text' as const, text: 'Look:' },
        { type: 'image' as const, image: { data: await png(64, { r: 0, g: 0, b: 255 }), mediaType: 'image/png' as const } },
      ],
    },
  ];
  const response = await agent.act({ messages, n: 3 });
  expect(response.outputs).toHaveLength(3);
  for (const output of response.outputs) {
    expect(output.tokens?.length).toBeGreaterThan(0);
    expect(output.logprobs).toHaveLength(output.tokens?.length ?? -1);
    expect(typeof output.text).toBe('string');
  }
  expect(response.usage?.inputTokens).toBeGreaterThan(16);
  const aborted = new AbortController();
  aborted.abort();
  await expect(agent.act({ messages, signal: aborted.signal })).rejects.toBeDefined();
  model.dispose();
});

it('continues a final assistant message with continueFinalMessage, and answers after it without', async () => {
  const model = VisionLanguageModel.create({ preset: 'tiny' });
  const question = { role: 'user' as const, content: 'Where is the goal?' };
  const messages = [question, { role: 'assistant' as const, content: [{ type: 'text' as const, text: '<think>' }] }];
  const template = (list: typeof messages | [typeof question]) => applyChatTemplate(model.tokenizer, list, { imageTokens: imageTokenCount(model.config), addGenerationPrompt: true }).tokens;
  const continuing = await createModelAgent({ model, maxTokens: 3, continueFinalMessage: true }).act({ messages });
  // The question's prompt, then the partial answer's tokens: not closed, no second <|assistant|>.
  expect(continuing.usage?.inputTokens).toBe(template([question]).length + model.tokenizer.encode('<think>').length);
  const answering = await createModelAgent({ model, maxTokens: 3 }).act({ messages });
  expect(answering.usage?.inputTokens).toBe(template(messages).length);
  model.dispose();
});

it('createContinuingModelAgent writes on from the partial answer: the prompt ends with <|assistant|> and the prefix, not closed', async () => {
  const model = VisionLanguageModel.create({ preset: 'tiny', seed: 0 });
  const question: Message = { role: 'user', content: [{ type: 'image', image: { data: await png(400, { r: 0, g: 170, b: 0 }), mediaType: 'image/png' } }, { type: 'text', text: 'Colour?' }] };
  const agent = createContinuingModelAgent({ model, seed: 5, maxTokens: 6, temperature: 0 });
  const { outputs, usage } = await agent.act({ messages: [question, { role: 'assistant', content: '<think>\n(1' }] });
  // The same greedy continuation, from the tokens built by hand.
  const sequence = applyChatTemplate(model.tokenizer, [question], { imageTokens: imageTokenCount(model.config), addGenerationPrompt: true });
  const tokens = [...sequence.tokens, ...model.tokenizer.encode('<think>\n(1')];
  const images = await Promise.all(sequence.images.map((image) => decodeImageData(image, model.config.imageSize)));
  const expected = (await model.generate({ prompts: [{ tokens, images }], temperature: 0, maxTokens: 6, seed: 5 }))[0]![0]!;
  expect(outputs[0]!.tokens).toHaveLength(6);
  expect(outputs[0]!.text).toBe(expected.text);
  expect(usage?.inputTokens).toBe(tokens.length);
  model.dispose();
});

it('fits a prompt longer than the context: <bos>, then its last tokens, images kept whole or dropped', () => {
  const model = VisionLanguageModel.create({ preset: 'tiny' });
  const t = model.tokenizer;
  const image = [t.encode('<image>')[0]!, t.imagePadId, t.imagePadId];
  const tokens = [t.bosId, ...t.encode('ab'), ...image, ...t.encode('cd'), ...image, ...t.encode('ef')];
  expect(fitPrompt(tokens, ['first', 'second'], 100, t)).toEqual({ tokens, images: ['first', 'second'] });
  const second = { tokens: [t.bosId, ...t.encode('cd'), ...image, ...t.encode('ef')], images: ['second'] };
  // 13 tokens into 8: 'ab' and the first image go.
  expect(fitPrompt(tokens, ['first', 'second'], 8, t)).toEqual(second);
  // Into 10: the cut falls inside the first image, which goes whole.
  expect(fitPrompt(tokens, ['first', 'second'], 10, t)).toEqual(second);
  // Into 5: inside the second image; both go.
  expect(fitPrompt(tokens, ['first', 'second'], 5, t)).toEqual({ tokens: [t.bosId, ...t.encode('ef')], images: [] });
  model.dispose();
});
