import { createLimiter } from '../create-limiter';
import { createOpenAICompatibleAgent, type OpenAICompatibleAgentSettings } from '../openai/create-openai-compatible-agent';
import { partialAssistantText, type Agent, type AgentActOptions, type AgentResponse } from '@saccade/spec';

/** What vLLM and SGLang read to continue the last assistant message instead of opening a new one. */
export const CONTINUE_FINAL_MESSAGE_BODY = { continue_final_message: true, add_generation_prompt: false } as const;

/**
 * An OpenAI-compatible agent (vLLM, SGLang) that can continue a partial answer: a request whose
 * messages end with an assistant message carries `continue_final_message: true,
 * add_generation_prompt: false`, so the server writes on from that text; other requests go out
 * as usual. Both kinds share one concurrency limit.
 */
export function createContinuingOpenAIAgent(settings: OpenAICompatibleAgentSettings): Agent {
  const concurrency = typeof settings.concurrency === 'function' ? settings.concurrency : createLimiter(settings.concurrency ?? 8);
  const fresh = createOpenAICompatibleAgent({ ...settings, concurrency });
  const continuing = createOpenAICompatibleAgent({ ...settings, concurrency, extraBody: { ...settings.extraBody, ...CONTINUE_FINAL_MESSAGE_BODY } });
  return {
    specificationVersion: 'v1',
    id: fresh.id,
    act(options: AgentActOptions): Promise<AgentResponse> {
      return (partialAssistantText(options.messages) === undefined ? fresh : continuing).act(options);
    },
  };
}
