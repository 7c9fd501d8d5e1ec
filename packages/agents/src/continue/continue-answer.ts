import { partialAssistantText, type Agent, type AgentActOptions, type AgentResponse, type Message } from '@saccade/spec';

/** The messages without a trailing partial answer. */
export function withoutPartialAnswer(messages: readonly Message[]): Message[] {
  return partialAssistantText(messages) === undefined ? messages.slice() : messages.slice(0, -1);
}

/**
 * Asks an agent to go on from `prefix` after `messages`: the prefix travels as a last assistant
 * message, and each output is the continuation only (the prefix is not repeated). An empty prefix
 * asks for a fresh answer. Agents that continue a partial answer: `createContinuingModelAgent`,
 * `createContinuingOpenAIAgent` (vLLM / SGLang `continue_final_message`), and the scripted
 * noisy grounding agent of @saccade/datagen.
 */
export function continueAnswer(agent: Agent, messages: readonly Message[], prefix: string, options: Omit<AgentActOptions, 'messages'> = {}): Promise<AgentResponse> {
  const base = withoutPartialAnswer(messages);
  return agent.act({ ...options, messages: prefix.length === 0 ? base : [...base, { role: 'assistant', content: prefix }] });
}

/** Cuts a text after the first stop string it contains (the stop string stays, as the Agent spec asks). */
export function applyStop(text: string, stop: readonly string[] | undefined): string {
  if (stop === undefined || stop.length === 0) return text;
  let cut = text.length;
  for (const marker of stop) {
    if (marker.length === 0) continue;
    const index = text.indexOf(marker);
    if (index !== -1 && index + marker.length < cut) cut = index + marker.length;
  }
  return text.slice(0, cut);
}
