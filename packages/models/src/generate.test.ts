import { beforeAll, describe, expect, it } from 'vitest';
import { cellImage, initBackend } from '../test/helpers';
import { applyChatTemplate, imageTokenCount, VisionLanguageModel, type ModelSequence } from './index';

beforeAll(initBackend);

function prompts(model: VisionLanguageModel): ModelSequence[] {
  const imageTokens = imageTokenCount(model.config);
  const make = (text: string, cell: number): ModelSequence => {
    const sequence = applyChatTemplate(
      model.tokenizer,
      [{ role: 'user', content: [{ type: 'image', image: { data: new Uint8Array(), mediaType: 'image/png' } }, { type: 'text', text }] }],
      { imageTokens },
    );
    return { tokens: sequence.tokens, images: [cellImage(64, cell, [0, 0, 0], [255, 255, 0])] };
  };
  // Different lengths, so that left padding and position ids are exercised.
  return [make('Where?', 3), make('A longer question here?', 9)];
}

describe('generate', () => {
  it('gives the same tokens with and without the KV cache (greedy and sampled)', async () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 1 });
    const input = prompts(model);
    // Many stop strings: rows finish at different steps, so the cache is compacted mid-way.
    const stop = 'aeiou0123456789,.'.split('');
    for (const [temperature, n, stops] of [[0, 2, []], [1, 2, []], [1, 6, stop]] as const) {
      const options = { prompts: input, n, temperature, maxTokens: 12, seed: 5, stop: [...stops] };
      const cached = await model.generate(options);
      const uncached = await model.generate({ ...options, useCache: false });
      expect(cached.map((samples) => samples.map((sample) => sample.tokens))).toEqual(
        uncached.map((samples) => samples.map((sample) => sample.tokens)),
      );
      cached.flat().forEach((sample, index) => {
        const other = uncached.flat()[index];
        sample.logProbs.forEach((logProb, position) => expect(logProb).toBeCloseTo(other?.logProbs[position] ?? NaN, 3));
      });
    }
    model.dispose();
  });

  it('prefills many long prompts a slice at a time and decodes them as it would one by one', async () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 3 });
    const imageTokens = imageTokenCount(model.config);
    // 45 prompts of up to 240 tokens: more than one prefill slice (32 × 280² / 240² = 43 prompts).
    const many = Array.from({ length: 45 }, (_, index): ModelSequence => {
      const text = `${'Where is it? '.repeat(16)}${'x'.repeat(index % 7)}`;
      const sequence = applyChatTemplate(model.tokenizer, [{ role: 'user', content: [{ type: 'image', image: { data: new Uint8Array(), mediaType: 'image/png' } }, { type: 'text', text }] }], { imageTokens });
      return { tokens: sequence.tokens, images: [cellImage(64, index % 16, [0, 0, 0], [255, 255, 0])] };
    });
    expect(Math.max(...many.map((prompt) => prompt.tokens.length))).toBeGreaterThan(230);
    const together = await model.generate({ prompts: many, temperature: 0, maxTokens: 6 });
    for (const index of [0, 31, 43, 44]) {
      const [alone] = await model.generate({ prompts: [many[index]!], temperature: 0, maxTokens: 6 });
      expect(together[index]![0]!.tokens, `prompt ${index}`).toEqual(alone![0]!.tokens);
    }
    model.dispose();
  });

  it('is deterministic for a seed and varies across seeds', async () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 2 });
    const options = { prompts: prompts(model), n: 4, maxTokens: 10, temperature: 1.5 };
    const first = await model.generate({ ...options, seed: 1 });
    const again = await model.generate({ ...options, seed: 1 });
    const other = await model.generate({ ...options, seed: 2 });
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
    expect(first).toHaveLength(2);
    expect(first[0]).toHaveLength(4);
    for (const sample of first.flat()) {
      expect(sample.tokens.length).toBeLessThanOrEqual(10);
      expect(sample.logProbs).toHaveLength(sample.tokens.length);
      expect(sample.text).toBe(model.tokenizer.decode(sample.tokens, { skipControl: true }));
    }
    model.dispose();
  });

  it('stops at stop strings, at the end token and at maxTokens', async () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 4 });
    const input = prompts(model);
    const free = (await model.generate({ prompts: input, temperature: 0, maxTokens: 8 })).flat();
    for (const sample of free) {
      if (sample.finishReason === 'length') expect(sample.tokens).toHaveLength(8);
      else expect(sample.tokens.at(-1)).toBe(model.tokenizer.endId);
    }
    // Stop on the first generated character: one token, reason 'stop'.
    const firstText = free[0]?.text.slice(0, 1) ?? '';
    if (firstText) {
      const [stopped] = (await model.generate({ prompts: input.slice(0, 1), temperature: 0, maxTokens: 8, stop: [firstText] })).flat();
      expect(stopped?.tokens).toHaveLength(1);
      expect(stopped?.finishReason).toBe('stop');
    }
    model.dispose();
  });
});
