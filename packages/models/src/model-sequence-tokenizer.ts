import { InvalidArgumentError, splitOnImages, type ContentPart, type EncodedChat, type ImageData, type SequenceMessage, type SequenceTokenizer } from '@saccade/spec';
import { applyChatTemplate } from './chat-template';
import { timePhase } from './phase-timer';
import { Tokenizer } from './tokenizer';

/** How `createModelSequenceTokenizer` counts an image's tokens and which tokenizer it encodes with. */
export interface ModelSequenceTokenizerOptions {
  /** Image tokens per image: the model's `imageTokenCount(model.config)`. */
  imageTokens: number;
  /** The model's tokenizer (`model.tokenizer`). Default: the built-in character tokenizer. */
  tokenizer?: Tokenizer;
}

// The template only counts image parts; it never reads their bytes.
const noBytes: ImageData = { data: new Uint8Array(0), mediaType: 'image/png' };

/**
 * The built-in small VLM's chat template (`applyChatTemplate`) as a `SequenceTokenizer` (the
 * contract in @saccade/spec that rollout's `tokenizeTrajectory` takes): `<bos>`, then per message its
 * role token, its content and `<|end|>`; an image is `<image>` and `imageTokens` × `<image_pad>`. The
 * loss mask covers an assistant's content and its `<|end|>`, as the model's own SFT step does; an
 * assistant message with `tokens` (what the model sampled) keeps those ids.
 *
 * @example
 * const tokenizer = createModelSequenceTokenizer({ imageTokens: imageTokenCount(model.config), tokenizer: model.tokenizer });
 * const sequence = tokenizeTrajectory(trajectory, tokenizer); // from @saccade/rollout
 */
export function createModelSequenceTokenizer(options: ModelSequenceTokenizerOptions): SequenceTokenizer {
  const imageTokens = options?.imageTokens;
  if (!Number.isSafeInteger(imageTokens) || imageTokens < 1) {
    throw new InvalidArgumentError({ argument: 'imageTokens', expected: "a positive integer (the model's imageTokenCount(config))", value: imageTokens });
  }
  const tokenizer = options.tokenizer ?? new Tokenizer();
  const imageTagId = tokenizer.encode('<image>')[0] ?? tokenizer.unknownId;

  const encodeChat = (messages: readonly SequenceMessage[]): EncodedChat => {
    const chat: EncodedChat = { inputIds: [tokenizer.bosId], generatedMask: [0], messageIndex: [-1], messageEnds: [], imageSpans: [] };
    messages.forEach((message, index) => {
      const content: string | ContentPart[] =
        message.role === 'user' ? userContent(message, index) : message.text;
      // One message at a time, so each token's message is known; the template's <bos> is dropped.
      const one = applyChatTemplate(tokenizer, [{ role: message.role, content }], { imageTokens, addGenerationPrompt: false });
      if (message.role === 'assistant' && message.tokens !== undefined) {
        // The sampled ids, not the text re-encoded: role token, the ids (without a trailing end), end.
        const sampled = message.tokens.at(-1) === tokenizer.endId ? message.tokens.slice(0, -1) : message.tokens;
        one.tokens = [one.tokens[0]!, one.tokens[1]!, ...sampled, tokenizer.endId];
        one.assistantMask = [0, 0, ...sampled.map(() => 1), 1];
      }
      const offset = chat.inputIds.length - 1;
      for (let i = 1; i < one.tokens.length; i++) {
        const id = one.tokens[i] as number;
        chat.inputIds.push(id);
        chat.generatedMask.push(one.assistantMask[i] === 1 ? 1 : 0);
        chat.messageIndex.push(index);
        if (message.role === 'user' && id === imageTagId && one.tokens[i + 1] === tokenizer.imagePadId) {
          chat.imageSpans.push({ start: offset + i, end: offset + i + 1 + imageTokens });
        }
      }
      chat.messageEnds[index] = chat.inputIds.length - 1;
    });
    return chat;
  };

  return {
    name: 'saccade-character',
    encodeChat: (messages) => timePhase('tokenise', () => encodeChat(messages)),
    decode: (ids) => tokenizer.decode(ids),
    imageSpans(ids) {
      const spans: { start: number; end: number }[] = [];
      for (let position = 0; position < ids.length; position++) {
        if (ids[position] === imageTagId && ids[position + 1] === tokenizer.imagePadId) {
          spans.push({ start: position, end: position + 1 + imageTokens });
          position += imageTokens;
        }
      }
      return spans;
    },
  };
}

function userContent(message: SequenceMessage, index: number): ContentPart[] {
  const parts: ContentPart[] = [];
  splitOnImages(message, index).forEach((piece, pieceIndex) => {
    if (piece.length > 0) parts.push({ type: 'text', text: piece });
    if (pieceIndex < message.images.length) parts.push({ type: 'image', image: noBytes });
  });
  return parts;
}
