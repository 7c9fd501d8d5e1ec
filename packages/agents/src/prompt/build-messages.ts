import type { Message, Observation } from '@saccade/spec';
import { applyHistoryWindow } from './apply-history-window';
import { observationToContent } from './observation-to-content';

/** One earlier turn: what the agent saw and what it answered. */
export interface HistoryTurn {
  observation: Observation;
  action: string;
}

export interface BuildMessagesOptions {
  /** The env's system prompt; left out when undefined or empty. */
  systemPrompt?: string;
  /** Earlier turns, oldest first. */
  history?: readonly HistoryTurn[];
  /** The observation to act on now. */
  observation: Observation;
  /** How many earlier turns to keep (default: all; VAGEN's default window is 5). */
  historyWindow?: number;
}

/**
 * Builds the chat for one turn: the system prompt, the last `historyWindow` turns as user
 * (observation) / assistant (action) pairs, and the current observation as the last user message.
 * Observation texts are split on `<image>` into text and image parts in order.
 *
 * @example
 * const { observation } = await env.reset({ seed: 0 });
 * const messages = buildMessages({ systemPrompt: env.systemPrompt(), observation });
 * const { outputs } = await agent.act({ messages });
 */
export function buildMessages({ systemPrompt, history = [], observation, historyWindow = Infinity }: BuildMessagesOptions): Message[] {
  const messages: Message[] = [];
  if (systemPrompt !== undefined && systemPrompt.length > 0) messages.push({ role: 'system', content: systemPrompt });
  for (const turn of history) {
    messages.push({ role: 'user', content: observationToContent(turn.observation) });
    messages.push({ role: 'assistant', content: turn.action });
  }
  messages.push({ role: 'user', content: observationToContent(observation) });
  return applyHistoryWindow(messages, historyWindow);
}
