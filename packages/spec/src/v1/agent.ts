import type { Message } from './message';

export interface AgentActOptions {
  messages: Message[];
  /** How many samples to draw (default 1). */
  n?: number;
  signal?: AbortSignal;
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  /** Generation stops after any of these strings (kept in the output). */
  stop?: string[];
}

export type AgentFinishReason = 'stop' | 'length' | 'error' | 'other';

/** One sampled answer. */
export interface AgentOutput {
  text: string;
  /** Token ids of the answer, when the agent exposes them. */
  tokens?: number[];
  /** Log-probability of each token in `tokens`. */
  logprobs?: number[];
  finishReason?: AgentFinishReason;
}

export interface AgentUsage {
  inputTokens?: number;
  outputTokens?: number;
}

export interface AgentResponse {
  /** One output per sample; `n` outputs when `n` was asked. */
  outputs: AgentOutput[];
  usage?: AgentUsage;
}

/** Anything that answers messages with text: a served VLM, a scripted oracle, a local policy. */
export interface Agent {
  readonly specificationVersion: 'v1';
  readonly id: string;
  act(options: AgentActOptions): Promise<AgentResponse>;
}
