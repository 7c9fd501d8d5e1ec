import { InvalidArgumentError, type ImageData, type Message } from '@saccade/spec';

/** A chat message as transformers.js chat templates read it: content is always a list of parts, images in place. */
export interface ProcessorChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: Array<{ type: 'text'; text: string } | { type: 'image' }>;
}

/**
 * Spec messages → the chat a processor's template renders, and the images in the order their
 * `{type: 'image'}` parts appear (the order the processor expects them). String content becomes
 * one text part, since templates such as SmolVLM's walk `content` as a list.
 *
 * @example
 * toProcessorChat([{ role: 'user', content: [{ type: 'image', image }, { type: 'text', text: 'Where now?' }] }]);
 * // { chat: [{ role: 'user', content: [{ type: 'image' }, { type: 'text', text: 'Where now?' }] }], images: [image] }
 */
export function toProcessorChat(messages: readonly Message[]): { chat: ProcessorChatMessage[]; images: ImageData[] } {
  const images: ImageData[] = [];
  const chat = messages.map((message): ProcessorChatMessage => {
    if (typeof message.content === 'string') return { role: message.role, content: [{ type: 'text', text: message.content }] };
    return {
      role: message.role,
      content: message.content.map((part) => {
        if (part.type === 'text') return { type: 'text', text: part.text };
        images.push(part.image);
        return { type: 'image' };
      }),
    };
  });
  return { chat, images };
}

/**
 * Florence-2 is not a chat model: it reads a task prompt (`<CAPTION>`, `<OCR>`,
 * `<CAPTION_TO_PHRASE_GROUNDING>the red car`, or free text) about one image. Both come from the last
 * user message: its text parts joined, and its first image.
 */
export function taskPrompt(messages: readonly Message[]): { text: string; image: ImageData } {
  const last = [...messages].reverse().find((message) => message.role === 'user');
  if (last === undefined) {
    throw new InvalidArgumentError({ argument: 'messages', expected: 'a user message (Florence-2 answers the last one)', value: messages.map((message) => message.role) });
  }
  const parts = typeof last.content === 'string' ? [{ type: 'text' as const, text: last.content }] : last.content;
  const image = parts.find((part) => part.type === 'image')?.image;
  if (image === undefined) {
    throw new InvalidArgumentError({
      argument: 'messages',
      expected: 'an image in the last user message (Florence-2 reads one image and a task prompt)',
      value: typeof last.content === 'string' ? last.content : `${parts.length} parts, none an image`,
    });
  }
  const text = parts
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join('')
    .trim();
  return { text, image };
}
