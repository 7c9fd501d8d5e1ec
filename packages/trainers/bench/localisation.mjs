#!/usr/bin/env node
// Does the model learn WHERE something is in the image? SFT on "where is the player?" over random
// 4×4 boards (ice, 20% holes, a goal, the player a red disc), greedy exact match on 64 held-out
// boards every 25 steps. Imports the built dists.
//   node bench/localisation.mjs [preset=tiny] [learningRate=3e-3] [d=0 (preset's)] [steps=300]
//   env: CONFIG='{"patchSize":8}' (config overrides), HOLES=0.2, FULL=1 (player fills its cell)
import { initTensor } from '@saccade/tensor';
import { applyChatTemplate, createAdamOptimizer, createRandom, imageTokenCount, VisionLanguageModel } from '@saccade/models';
import { sftStep } from '@saccade/trainers';
await initTensor();
const preset = process.argv[2] ?? 'tiny';
const lr = Number(process.argv[3] ?? '3e-3');
const d = Number(process.argv[4] ?? '0');
const model = VisionLanguageModel.create({ preset, seed: 0, config: { ...(d ? { modelDimension: d, headCount: 4, mlpRatio: 2 } : {}), ...JSON.parse(process.env.CONFIG ?? '{}') } });
const random = createRandom(7);
const colours = [[170, 210, 240], [20, 40, 90], [250, 250, 250], [40, 160, 60]];
function example() {
  const data = new Uint8Array(64 * 64 * 3);
  const holes = Number(process.env.HOLES ?? '0.2');
  const full = process.env.FULL === '1';
  const cells = Array.from({ length: 16 }, () => (random() < holes ? 1 : 0));
  cells[15] = 3;
  const player = Math.floor(random() * 15);
  for (let y = 0; y < 64; y++) for (let x = 0; x < 64; x++) {
    const cell = Math.floor(y / 16) * 4 + Math.floor(x / 16);
    const inDisc = cell === player && (full || (x % 16 - 8) ** 2 + (y % 16 - 8) ** 2 < 30);
    data.set(inDisc ? [220, 30, 30] : colours[cells[cell]], (y * 64 + x) * 3);
  }
  const answer = `<answer>${Math.floor(player / 4)},${player % 4}</answer>`;
  const seq = applyChatTemplate(model.tokenizer, [{ role: 'user', content: [{ type: 'image', image: { data: new Uint8Array(), mediaType: 'image/png' } }, { type: 'text', text: 'Where?' }] }, { role: 'assistant', content: answer }], { imageTokens: imageTokenCount(model.config), addGenerationPrompt: false });
  return { tokens: seq.tokens, images: [{ width: 64, height: 64, data }], lossMask: seq.assistantMask, answer };
}
const held = Array.from({ length: 64 }, example);
const optimizer = createAdamOptimizer({ learningRate: lr });
const start = performance.now();
for (let step = 1; step <= Number(process.argv[5] ?? '300'); step++) {
  const { loss } = sftStep(model, optimizer, Array.from({ length: 32 }, example));
  if (step % 25 === 0) {
    const prompts = held.map((e) => ({ tokens: e.tokens.slice(0, e.tokens.indexOf(model.tokenizer.assistantId) + 1), images: e.images }));
    const out = await model.generate({ prompts, temperature: 0, maxTokens: 10 });
    const acc = out.filter(([s], i) => s.text === held[i].answer).length / held.length;
    console.log(JSON.stringify({ step, loss: +loss.toFixed(3), heldOutExact: acc, seconds: +((performance.now() - start) / 1000).toFixed(1) }));
    if (acc === 1) break;
  }
}
