import type { Message } from './message';

/**
 * The partial answer an agent is asked to continue: the text of the last message when it is the
 * assistant's, else undefined. Agents that continue (the built-in model with
 * `continueFinalMessage`, vLLM's `continue_final_message`) write on from this text instead of
 * opening a new answer.
 */
export function partialAssistantText(messages: readonly Message[]): string | undefined {
  const last = messages[messages.length - 1];
  if (last?.role !== 'assistant') return undefined;
  return typeof last.content === 'string' ? last.content : last.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
}
