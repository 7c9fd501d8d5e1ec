import { InvalidArgumentError } from '../errors/invalid-argument-error';
import type { MessageRole } from './message';
import { IMAGE_PLACEHOLDER } from './observation';
import type { ImageRef } from './trajectory';

/** One chat message to tokenise: text with one `<image>` placeholder per image in `images`. */
export interface SequenceMessage {
  role: MessageRole;
  text: string;
  images: readonly ImageRef[];
  /**
   * An assistant message's token ids as the policy sampled them (the trajectory's `turn.tokens`),
   * used in place of encoding `text` by tokenizers of the same model; a trailing end token may be
   * among them.
   */
  tokens?: readonly number[];
}

/** A chat as token ids, with what a training sequence needs to know about each token. */
export interface EncodedChat {
  inputIds: number[];
  /** 1 on tokens the model generated: each assistant message's content and its end token. */
  generatedMask: number[];
  /** The message each token belongs to; -1 for template tokens outside every message (`<bos>`, a default system prompt). */
  messageIndex: number[];
  /** Per message, the position of its end token (`<|im_end|>`, `<|end|>`). */
  messageEnds: number[];
  /** Each image's tokens `[start, end)`, in order, markers included (`<|vision_start|>` … `<|vision_end|>`). */
  imageSpans: { start: number; end: number }[];
}

/**
 * Turns a chat into one token sequence in a model's chat template; rollout's `tokenizeTrajectory`
 * builds training sequences with any implementation. Implementations: the built-in model's
 * (`createModelSequenceTokenizer` in @saccade/models) and Qwen2.5-VL's (`createQwen25SequenceTokenizer`
 * in @saccade/rollout).
 */
export interface SequenceTokenizer {
  /** e.g. `saccade-character` or `qwen2.5-vl`. */
  readonly name: string;
  encodeChat(messages: readonly SequenceMessage[]): EncodedChat;
  decode(ids: readonly number[]): string;
  /** Each image's tokens `[start, end)` in ids this tokenizer made (markers included), in order. */
  imageSpans(ids: readonly number[]): { start: number; end: number }[];
}

/**
 * Splits a message's text on its `<image>` placeholders (the pieces around each image, for a
 * `SequenceTokenizer` to encode); throws an `InvalidArgumentError` naming `messages[index]` when
 * the placeholders' count differs from the images'.
 *
 * @example
 * splitOnImages({ role: 'user', text: 'Look: <image>!', images: [image] }, 0) // ['Look: ', '!']
 */
export function splitOnImages(message: SequenceMessage, index: number): string[] {
  const pieces = message.text.split(IMAGE_PLACEHOLDER);
  const placeholders = pieces.length - 1;
  if (placeholders !== message.images.length) {
    throw new InvalidArgumentError({
      argument: `messages[${index}]`,
      expected: 'one <image> placeholder per image',
      value: message.text,
      message:
        `Invalid argument messages[${index}]: its text has ${placeholders} <image> placeholder(s) but ${message.images.length} ` +
        'image reference(s); expected one placeholder per image.',
    });
  }
  return pieces;
}
