import type { ImageData } from './image-data';

export interface TextPart {
  type: 'text';
  text: string;
}

export interface ImagePart {
  type: 'image';
  image: ImageData;
}

export type ContentPart = TextPart | ImagePart;

export type MessageRole = 'system' | 'user' | 'assistant';

/** One chat message; `content` is plain text or text and image parts in order. */
export interface Message {
  role: MessageRole;
  content: string | ContentPart[];
}
