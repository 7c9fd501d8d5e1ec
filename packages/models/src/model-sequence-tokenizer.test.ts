import { InvalidArgumentError, type ImageRef, type SequenceMessage } from '@saccade/spec';
import { describe, expect, it } from 'vitest';
import { applyChatTemplate } from './chat-template';
import { createModelSequenceTokenizer } from './model-sequence-tokenizer';
import { Tokenizer } from './tokenizer';

const image: ImageRef = { hash: 'b'.repeat(64), mediaType: 'image/png', width: 8, height: 8 };
const chat: SequenceMessage[] = [
  { role: 'user', text: 'Hi <image>', images: [image] },
  { role: 'assistant', text: 'Ok', images: [] },
];

describe('createModelSequenceTokenizer', () => {
  // <bos> 2, <|end|> 3, <|user|> 5, <|assistant|> 6, <image_pad> 7, <image> 8; printable ASCII c is c − 7.
  it('pins the ids, the generated mask, the messages, their ends and the image span', () => {
    const tokenizer = createModelSequenceTokenizer({ imageTokens: 2 });
    const encoded = tokenizer.encodeChat(chat);
    expect(encoded).toEqual({
      inputIds: [2, 5, 65, 98, 25, 8, 7, 7, 3, 6, 72, 100, 3],
      generatedMask: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1],
      messageIndex: [-1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1],
      messageEnds: [8, 12],
      imageSpans: [{ start: 5, end: 8 }],
    });
    expect(tokenizer.name).toBe('saccade-character');
    expect(tokenizer.imageSpans(encoded.inputIds)).toEqual([{ start: 5, end: 8 }]);
    expect(tokenizer.decode(encoded.inputIds)).toBe('<bos><|user|>Hi <image><image_pad><image_pad><|end|><|assistant|>Ok<|end|>');
  });

  it('agrees with applyChatTemplate, and keeps the ids the policy sampled', () => {
    const tokenizer = createModelSequenceTokenizer({ imageTokens: 2 });
    const png = { data: new Uint8Array(0), mediaType: 'image/png' as const };
    const expected = applyChatTemplate(
      new Tokenizer(),
      [
        { role: 'user', content: [{ type: 'text', text: 'Hi ' }, { type: 'image', image: png }] },
        { role: 'assistant', content: 'Ok' },
      ],
      { imageTokens: 2, addGenerationPrompt: false },
    );
    expect(tokenizer.encodeChat(chat).inputIds).toEqual(expected.tokens);
    expect(tokenizer.encodeChat(chat).generatedMask).toEqual(expected.assistantMask);
    // Sampled ids win over the text; a trailing <|end|> among them is not doubled.
    const sampled = tokenizer.encodeChat([chat[0]!, { role: 'assistant', text: 'ignored', images: [], tokens: [72, 100, 3] }]);
    expect(sampled.inputIds).toEqual(expected.tokens);
  });

  it('refuses a bad image token count and a text whose placeholders and images disagree', () => {
    expect(() => createModelSequenceTokenizer({ imageTokens: 0 })).toThrow(InvalidArgumentError);
    const tokenizer = createModelSequenceTokenizer({ imageTokens: 2 });
    expect(() => tokenizer.encodeChat([{ role: 'user', text: 'Hi', images: [image] }])).toThrow(
      'Invalid argument messages[0]: its text has 0 <image> placeholder(s) but 1 image reference(s); expected one placeholder per image.',
    );
  });
});
