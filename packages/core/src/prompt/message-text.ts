import type { Message } from '@saccade/spec';

/** The text of a chat message: its content when plain text, else its text parts joined (images left out). */
export function messageText(message: Message): string {
  return typeof message.content === 'string' ? message.content : message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
}
