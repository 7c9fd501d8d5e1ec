import { InvalidArgumentError, type Message, type Observation } from '@saccade/spec';
import { applyHistoryWindow } from './apply-history-window';
import { observationToContent } from './observation-to-content';

/**
 * What of the env's text a prompt keeps. `'full'`: the system prompt and each observation's text
 * with its images in place. `'image'`: only the observations' images, no system prompt and no text:
 * for a Markov visual task (a grid world) the image holds the state, and a character-level policy's
 * sequences get several times shorter. `'no-system'`: everything but the system prompt: for a small
 * policy whose context cannot hold a long constant prompt (a tools block), and whose calls SFT teaches.
 */
export type PromptView = 'full' | 'image' | 'no-system';
/** Every prompt view, for checks and CLI choices. */
export const PROMPT_VIEWS: readonly PromptView[] = ['full', 'image', 'no-system'];

/** One earlier turn: what the agent saw and what it answered. */
export interface HistoryTurn {
  observation: Observation;
  action: string;
}

/** What `buildMessages` makes one turn's chat from. */
export interface BuildMessagesOptions {
  /** The env's system prompt; left out when undefined or empty. */
  systemPrompt?: string;
  /** Earlier turns, oldest first. */
  history?: readonly HistoryTurn[];
  /** The observation to act on now. */
  observation: Observation;
  /** How many earlier turns to keep (default: all; VAGEN's default window is 5). */
  historyWindow?: number;
  /** Default `'full'`. */
  view?: PromptView;
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
export function buildMessages({ systemPrompt, history = [], observation, historyWindow = Infinity, view = 'full' }: BuildMessagesOptions): Message[] {
  const messages: Message[] = [];
  if (systemPrompt !== undefined && systemPrompt.length > 0) messages.push({ role: 'system', content: systemPrompt });
  for (const turn of history) {
    messages.push({ role: 'user', content: observationToContent(turn.observation) });
    messages.push({ role: 'assistant', content: turn.action });
  }
  messages.push({ role: 'user', content: observationToContent(observation) });
  return applyPromptView(applyHistoryWindow(messages, historyWindow), view);
}

/**
 * A chat as a policy trained with `view` reads it: unchanged for `'full'`; without system messages
 * for `'no-system'`; for `'image'` without system messages and with only the images of the user messages. A server of such a policy applies
 * it to the chats its clients send.
 */
export function applyPromptView(messages: readonly Message[], view: PromptView): Message[] {
  if (!PROMPT_VIEWS.includes(view)) throw new InvalidArgumentError({ argument: 'view', expected: PROMPT_VIEWS.map((name) => `'${name}'`).join(' | '), value: view });
  if (view === 'full') return messages.slice();
  if (view === 'no-system') return messages.filter((message) => message.role !== 'system');
  return messages.flatMap((message): Message[] => {
    if (message.role === 'system') return [];
    if (message.role === 'assistant') return [message];
    return [{ ...message, content: typeof message.content === 'string' ? [] : message.content.filter((part) => part.type === 'image') }];
  });
}
