import { InvalidArgumentError, type Message } from '@saccade/spec';

/**
 * Keeps the system messages and the last `window` user/assistant exchanges, plus the messages after
 * the last assistant answer (the current turn). An exchange is the run of user messages before an
 * assistant message, and that message. `window` Infinity keeps everything; 0 keeps only the system
 * messages and the current turn.
 *
 * @example
 * applyHistoryWindow([system, user0, assistant0, user1, assistant1, user2], 1);
 * // [system, user1, assistant1, user2]
 */
export function applyHistoryWindow(messages: readonly Message[], window: number): Message[] {
  if (!(window === Infinity || (Number.isSafeInteger(window) && window >= 0))) {
    throw new InvalidArgumentError({ argument: 'historyWindow', expected: 'an integer ≥ 0 or Infinity', value: window });
  }
  if (window === Infinity) return messages.slice();
  const system = messages.filter((message) => message.role === 'system');
  const dialogue = messages.filter((message) => message.role !== 'system');
  const exchanges: Message[][] = [];
  let current: Message[] = [];
  for (const message of dialogue) {
    current.push(message);
    if (message.role === 'assistant') {
      exchanges.push(current);
      current = [];
    }
  }
  const kept = window === 0 ? [] : exchanges.slice(-window);
  return [...system, ...kept.flat(), ...current];
}
