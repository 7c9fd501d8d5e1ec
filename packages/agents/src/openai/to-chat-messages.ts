import { recordedImageSize, resize, toDataUrl } from '@saccade/image';
import type { ImageData, Message } from '@saccade/spec';

/** A content part as OpenAI-compatible servers take it. */
export type ChatContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

/**
 * A message in the OpenAI chat completions format: a role and text or content parts (text and
 * `image_url` data URLs).
 */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string | ChatContentPart[];
}

/** Encodes images as data URLs, resized down to at most `maxPixels` (aspect ratio kept); caches by byte buffer. */
export class ImageUrlEncoder {
  readonly #maxPixels: number;
  readonly #cache = new WeakMap<Uint8Array, Promise<string>>();

  constructor(maxPixels: number) {
    this.#maxPixels = maxPixels;
  }

  encode(image: ImageData): Promise<string> {
    let url = this.#cache.get(image.data);
    if (url === undefined) {
      url = this.#encode(image);
      this.#cache.set(image.data, url);
      url.catch(() => this.#cache.delete(image.data));
    }
    return url;
  }

  async #encode(image: ImageData): Promise<string> {
    if (this.#maxPixels === Infinity) return toDataUrl(image);
    const size = await recordedImageSize(image);
    const pixels = size.width * size.height;
    if (pixels <= this.#maxPixels) return toDataUrl(image);
    const scale = Math.sqrt(this.#maxPixels / pixels);
    const width = Math.max(1, Math.floor(size.width * scale));
    const height = Math.max(1, Math.floor(size.height * scale));
    return toDataUrl(await resize(image, { width, height, fit: 'fill' }));
  }
}

/** Spec messages → chat-completions messages; image parts become `image_url` parts with data URLs. */
export async function toChatMessages(messages: readonly Message[], encoder: ImageUrlEncoder): Promise<ChatMessage[]> {
  return Promise.all(
    messages.map(async (message): Promise<ChatMessage> => {
      if (typeof message.content === 'string') return { role: message.role, content: message.content };
      const content = await Promise.all(
        message.content.map(async (part): Promise<ChatContentPart> =>
          part.type === 'text' ? { type: 'text', text: part.text } : { type: 'image_url', image_url: { url: await encoder.encode(part.image) } },
        ),
      );
      return { role: message.role, content };
    }),
  );
}
