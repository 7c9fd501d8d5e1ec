import type { ImageData, Message } from '@saccade/spec';
import type { Tokenizer } from './tokenizer';

/**
 * How applyChatTemplate lays out a chat: image tokens per image, and whether it ends on the
 * assistant's turn for the model to answer.
 */
export interface ChatTemplateOptions {
  /** Image tokens per image (the model's `imageTokenCount(config)`). */
  imageTokens: number;
  /** End with `<|assistant|>` so that the model answers next. Default true. */
  addGenerationPrompt?: boolean;
}

/**
 * A chat as the model reads it: token ids, the images that fill its image slots, and the mask of
 * the tokens a trainer puts loss on.
 */
export interface ChatSequence {
  tokens: number[];
  /** The images in slot order; slot i fills the i-th run of `<image_pad>` ids. */
  images: ImageData[];
  /** 1 on assistant content and its end token (what a trainer puts loss on), else 0. */
  assistantMask: number[];
}

/**
 * `<bos>` then per message: role token, content, `<|end|>`. An image part becomes `<image>` and
 * `imageTokens` × `<image_pad>`, so the model sees where an image starts and its features follow.
 */
export function applyChatTemplate(
  tokenizer: Tokenizer,
  messages: readonly Message[],
  options: ChatTemplateOptions,
): ChatSequence {
  const tokens: number[] = [tokenizer.bosId];
  const assistantMask: number[] = [0];
  const images: ImageData[] = [];
  const roleIds = { system: tokenizer.systemId, user: tokenizer.userId, assistant: tokenizer.assistantId };
  const imageTagId = tokenizer.encode('<image>')[0] ?? tokenizer.unknownId;
  for (const message of messages) {
    const mark = message.role === 'assistant' ? 1 : 0;
    const push = (ids: readonly number[], flag: number): void => {
      for (const id of ids) {
        tokens.push(id);
        assistantMask.push(flag);
      }
    };
    push([roleIds[message.role]], 0);
    const parts = typeof message.content === 'string' ? [{ type: 'text' as const, text: message.content }] : message.content;
    for (const part of parts) {
      if (part.type === 'text') push(tokenizer.encode(part.text), mark);
      else {
        images.push(part.image);
        push([imageTagId, ...new Array<number>(options.imageTokens).fill(tokenizer.imagePadId)], 0);
      }
    }
    push([tokenizer.endId], mark);
  }
  if (options.addGenerationPrompt ?? true) {
    tokens.push(tokenizer.assistantId);
    assistantMask.push(0);
  }
  return { tokens, images, assistantMask };
}
