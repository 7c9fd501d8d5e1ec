import type { ContentPart, Message } from '@saccade/spec';
import { z } from 'zod';
import { fromDataUrl } from '../http/data-url';

const textPart = z.object({ type: z.literal('text'), text: z.string() });
const imagePart = z.object({
  type: z.literal('image_url'),
  image_url: z.union([z.string(), z.looseObject({ url: z.string(), detail: z.string().optional() })]),
});
const message = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool']),
  content: z.union([z.string(), z.array(z.union([textPart, imagePart])), z.null()]).optional(),
});

/** The part of OpenAI's chat-completions request the built-in model serves; other fields are accepted and ignored. */
export const chatCompletionRequestSchema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(message).min(1),
  n: z.number().int().min(1).max(64).nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().gt(0).max(1).nullish(),
  max_tokens: z.number().int().positive().nullish(),
  max_completion_tokens: z.number().int().positive().nullish(),
  stop: z.union([z.string().min(1), z.array(z.string().min(1)).max(16)]).nullish(),
  logprobs: z.boolean().nullish(),
  top_logprobs: z.number().int().min(0).max(20).nullish(),
  seed: z.number().int().nullish(),
  stream: z.boolean().nullish(),
});

export type ChatCompletionRequest = z.infer<typeof chatCompletionRequestSchema>;

export const CHAT_REQUEST_SHAPE =
  '{"model": string, "messages": [{"role": "system"|"user"|"assistant", "content": string | [{"type": "text", "text"} | {"type": "image_url", "image_url": {"url": "data:image/png;base64,…"}}]}], "n"?, "temperature"?, "top_p"?, "max_tokens"?, "stop"?, "logprobs"?}';

/** OpenAI messages → spec messages: `developer` reads as `system`, `tool` as `user`; images from data URLs. */
export function toSpecMessages(messages: ChatCompletionRequest['messages']): Message[] {
  return messages.map((chat, index) => {
    const role = chat.role === 'developer' ? 'system' : chat.role === 'tool' ? 'user' : chat.role;
    if (chat.content === undefined || chat.content === null || typeof chat.content === 'string') return { role, content: chat.content ?? '' };
    const content = chat.content.map((part, at): ContentPart => {
      if (part.type === 'text') return { type: 'text', text: part.text };
      const url = typeof part.image_url === 'string' ? part.image_url : part.image_url.url;
      return { type: 'image', image: fromDataUrl(url, `messages[${index}].content[${at}].image_url.url`) };
    });
    return { role, content };
  });
}
