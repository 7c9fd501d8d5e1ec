import type { ImageData, Message } from '@saccade/spec';

/**
 * The text and images of the last message an agent was given (what the env or a tool showed it
 * last): for a scripted agent in a test that answers what it sees.
 *
 * @example
 * const agent = new MockAgent({ responses: [zoomCall, ({ messages }) => (lastObservation(messages).images.length > 0 ? answer : 'no crop')] });
 */
export function lastObservation(messages: readonly Message[]): { text: string; images: ImageData[] } {
  const last = messages[messages.length - 1];
  if (last === undefined) return { text: '', images: [] };
  if (typeof last.content === 'string') return { text: last.content, images: [] };
  return {
    text: last.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(''),
    images: last.content.flatMap((part) => (part.type === 'image' ? [part.image] : [])),
  };
}
