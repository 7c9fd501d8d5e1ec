// The `<|image_pad|>` tokens the Qwen2.5-VL sequence tokenizer counts for an image by default are
// those vLLM gives the model with Qwen2.5-VL's published processor settings (min_pixels 3,136,
// max_pixels 12,845,056); a server started with other bounds is matched through the options.
import { describe, expect, it } from 'vitest';
import { createQwen25SequenceTokenizer } from './qwen25-sequence-tokenizer';

const padTokens = async (width: number, height: number, options: { maxPixels?: number } = {}) => {
  const tokenizer = await createQwen25SequenceTokenizer(options);
  const { imageSpans } = tokenizer.encodeChat([{ role: 'user', text: '<image>', images: [{ hash: '0'.repeat(64), mediaType: 'image/png', width, height }] }]);
  const [span] = imageSpans;
  return span!.end - span!.start - 2; // less <|vision_start|> and <|vision_end|>
};

describe('Qwen2.5-VL image pad tokens', () => {
  it.each([
    [2048, 2048, 5329],
    [1920, 1080, 2691],
    [3840, 2160, 10549],
    [1024, 768, 999],
    [8000, 6000, 16170],
    [100, 10, 7],
  ])('%i × %i: %i tokens, as vLLM with the published settings', async (width, height, tokens) => {
    expect(await padTokens(width, height)).toBe(tokens);
  });

  it('follows a server started with max_pixels 1,003,520', async () => {
    expect(await padTokens(2048, 2048, { maxPixels: 1_003_520 })).toBe(1225);
    expect(await padTokens(1920, 1080, { maxPixels: 1_003_520 })).toBe(1222);
  });
});
