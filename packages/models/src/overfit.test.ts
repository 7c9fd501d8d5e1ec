import { beforeAll, expect, it } from 'vitest';
import { initBackend, solidImage } from '../test/helpers';
import { applyChatTemplate, createAdamOptimizer, imageTokenCount, sftStep, VisionLanguageModel, type SftExample } from './index';

beforeAll(initBackend);

const pairs: [[number, number, number], string][] = [
  [[220, 40, 40], '<answer>Left</answer>'],
  [[40, 200, 40], '<answer>Right</answer>'],
  [[40, 40, 220], '<answer>Up</answer>'],
  [[230, 230, 40], '<answer>Down</answer>'],
];

it('overfits image–answer pairs: the answer depends on the image only', async () => {
  const model = VisionLanguageModel.create({ preset: 'tiny', seed: 0 });
  const imageTokens = imageTokenCount(model.config);
  const image = { data: new Uint8Array(), mediaType: 'image/png' as const };
  const examples: SftExample[] = pairs.map(([colour, answer]) => {
    const sequence = applyChatTemplate(
      model.tokenizer,
      [
        { role: 'user', content: [{ type: 'image', image }, { type: 'text', text: 'Move?' }] },
        { role: 'assistant', content: answer },
      ],
      { imageTokens, addGenerationPrompt: false },
    );
    return { tokens: sequence.tokens, images: [solidImage(64, colour)], lossMask: sequence.assistantMask };
  });
  const optimizer = createAdamOptimizer({ learningRate: 1e-2 });
  let loss = Infinity;
  for (let step = 0; step < 150 && loss > 0.01; step++) loss = sftStep(model, optimizer, examples).loss;
  expect(loss).toBeLessThan(0.05);
  const prompts = examples.map((example) => ({ tokens: example.tokens.slice(0, example.tokens.indexOf(model.tokenizer.assistantId) + 1), images: example.images ?? [] }));
  const answers = await model.generate({ prompts, temperature: 0, maxTokens: 12 });
  expect(answers.map(([sample]) => sample?.text)).toEqual(pairs.map(([, answer]) => answer));
  expect(answers.every(([sample]) => sample?.finishReason === 'stop')).toBe(true);
  optimizer.dispose();
  model.dispose();
});
