#!/usr/bin/env node
// Teaches the built-in tiny model four image → answer pairs with SFT steps, then asks it greedily.
// Run from the repository root after `pnpm nx run @saccade/trainers:build`:
//   node packages/trainers/examples/overfit.mjs
import { applyChatTemplate, createAdamOptimizer, imageTokenCount, VisionLanguageModel } from '@saccade/models';
import { initTensor } from '@saccade/tensor';
import { sftStep } from '@saccade/trainers';

await initTensor();
const model = VisionLanguageModel.create({ preset: 'tiny', seed: 0 });
const solid = ([r, g, b]) => {
  const data = new Uint8Array(64 * 64 * 3);
  for (let pixel = 0; pixel < 64 * 64; pixel++) data.set([r, g, b], pixel * 3);
  return { width: 64, height: 64, data };
};
const pairs = [
  [[220, 40, 40], '<answer>Left</answer>'],
  [[40, 200, 40], '<answer>Right</answer>'],
  [[40, 40, 220], '<answer>Up</answer>'],
  [[230, 230, 40], '<answer>Down</answer>'],
];
const placeholder = { data: new Uint8Array(), mediaType: 'image/png' }; // pixels come in `images`
const examples = pairs.map(([colour, answer]) => {
  const { tokens, assistantMask } = applyChatTemplate(
    model.tokenizer,
    [
      { role: 'user', content: [{ type: 'image', image: placeholder }, { type: 'text', text: 'Move?' }] },
      { role: 'assistant', content: answer },
    ],
    { imageTokens: imageTokenCount(model.config), addGenerationPrompt: false },
  );
  return { tokens, images: [solid(colour)], lossMask: assistantMask };
});

const optimizer = createAdamOptimizer({ learningRate: 1e-2 });
for (let step = 1; step <= 150; step++) {
  const { loss } = sftStep(model, optimizer, examples);
  if (step % 25 === 0) console.log(`step ${step}: loss ${loss.toFixed(4)}`);
  if (loss < 0.01) break;
}
const prompts = examples.map(({ tokens, images }) => ({ tokens: tokens.slice(0, tokens.indexOf(model.tokenizer.assistantId) + 1), images }));
const answers = await model.generate({ prompts, temperature: 0, maxTokens: 12 });
answers.forEach(([sample], index) => console.log(`${pairs[index][1]} → ${sample.text}`));
optimizer.dispose();
model.dispose();
