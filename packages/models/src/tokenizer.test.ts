import { describe, expect, it } from 'vitest';
import { applyChatTemplate, FORMAT_TAGS, Tokenizer } from './index';

describe('Tokenizer', () => {
  const tokenizer = new Tokenizer();

  it('round-trips printable ASCII, tabs, newlines and tags exactly', () => {
    const text = 'Hi!\t<think>a < b, {"x": [1, 2]}\n</think><answer>Left,Down</answer> ~`|\\';
    expect(tokenizer.decode(tokenizer.encode(text))).toBe(text);
  });

  it('encodes every format tag as one id', () => {
    for (const tag of FORMAT_TAGS) expect(tokenizer.encode(tag)).toHaveLength(1);
    expect(tokenizer.encode('<answer>Up</answer>')).toHaveLength(4);
  });

  it('maps unknown characters to the unknown id without throwing', () => {
    const ids = tokenizer.encode('é😀a');
    expect(ids).toEqual([tokenizer.unknownId, tokenizer.unknownId, tokenizer.encode('a')[0]]);
  });

  it('never encodes control tokens from text', () => {
    expect(tokenizer.encode('<|end|>')).not.toContain(tokenizer.endId);
    expect(tokenizer.decode(tokenizer.encode('<|end|><pad>'))).toBe('<|end|><pad>');
  });

  it('survives a JSON round trip', () => {
    const copy = new Tokenizer(JSON.parse(JSON.stringify(tokenizer.toJSON())));
    expect(copy.tokens).toEqual(tokenizer.tokens);
    expect(copy.encode('<tool_call>{}</tool_call>')).toEqual(tokenizer.encode('<tool_call>{}</tool_call>'));
  });
});

describe('applyChatTemplate', () => {
  const tokenizer = new Tokenizer();
  const image = { data: new Uint8Array([1]), mediaType: 'image/png' as const };

  it('lays out roles, image slots and the assistant mask', () => {
    const sequence = applyChatTemplate(
      tokenizer,
      [
        { role: 'system', content: 'S' },
        { role: 'user', content: [{ type: 'text', text: 'Q' }, { type: 'image', image }] },
        { role: 'assistant', content: 'A' },
      ],
      { imageTokens: 3, addGenerationPrompt: false },
    );
    const text = tokenizer.decode(sequence.tokens);
    expect(text).toBe('<bos><|system|>S<|end|><|user|>Q<image><image_pad><image_pad><image_pad><|end|><|assistant|>A<|end|>');
    expect(sequence.images).toEqual([image]);
    expect(sequence.assistantMask.slice(-3)).toEqual([0, 1, 1]);
    expect(sequence.assistantMask.reduce((a, b) => a + b, 0)).toBe(2);
  });

  it('ends with the assistant token when asked to prompt', () => {
    const sequence = applyChatTemplate(tokenizer, [{ role: 'user', content: 'go' }], { imageTokens: 16 });
    expect(sequence.tokens.at(-1)).toBe(tokenizer.assistantId);
  });
});
