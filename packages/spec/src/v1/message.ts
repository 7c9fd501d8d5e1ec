import type { ImageData } from './image-data';

/** Text in a message. */
export interface TextPart {
  type: 'text';
  text: string;
}

/** An image in a message, as encoded bytes. */
export interface ImagePart {
  type: 'image';
  image: ImageData;
}

/** One part of a message's content: text or an image. */
export type ContentPart = TextPart | ImagePart;

/** Who a message is from: the system prompt, the user (env observations, tool results) or the assistant (the agent). */
export type MessageRole = 'system' | 'user' | 'assistant';

/** One chat message; `content` is plain text or text and image parts in order. */
export interface Message {
  role: MessageRole;
  content: string | ContentPart[];
}
