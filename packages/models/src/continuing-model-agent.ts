import { createModelAgent, type ModelAgentSettings } from './model-agent';
import type { Agent } from '@saccade/spec';

/**
 * The built-in model as an Agent that can continue a partial answer: `createModelAgent` with
 * `continueFinalMessage`, so when the messages end with an assistant message, the prompt ends with
 * `<|assistant|>` and that text (not closed by `<|end|>`), and the output is what the model writes
 * after it. Otherwise it answers as `createModelAgent` does.
 */
export function createContinuingModelAgent(settings: ModelAgentSettings): Agent {
  return createModelAgent({ ...settings, continueFinalMessage: true });
}
