import type { Message } from './message';

/** What `Agent.act` receives: the conversation, how many samples to draw, sampling settings, and a signal that cancels the request. */
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
  /** Seed of the sampler (vLLM's and OpenAI's `seed`): same seed, same samples, where the agent supports it. */
  seed?: number;
}

/** One call for many chats at once: the sampling settings of `act`, with one message list per chat. */
export interface AgentActBatchOptions extends Omit<AgentActOptions, 'messages'> {
  /** One chat per entry; the responses come back in the same order. */
  messages: Message[][];
}

/** Why an output stopped: a stop sequence or end of turn (`stop`), the token budget (`length`), an error, or another reason the backend gave. */
export type AgentFinishReason = 'stop' | 'length' | 'error' | 'other';

/** One sampled answer. */
export interface AgentOutput {
  text: string;
  /** Token ids of the answer, when the agent exposes them. */
  tokens?: number[];
  /**
   * Log-probability of each token in `tokens` under the distribution it was sampled from (the
   * model's, after temperature and any banned ids), so that a trainer can use it as the old
   * log-probability of the PPO ratio.
   */
  logprobs?: number[];
  finishReason?: AgentFinishReason;
}

/**
 * The prompt exactly as a local model read it, after its chat template and any cut to fit its
 * context: what a trainer must score the sampled tokens in.
 */
export interface AgentPrompt {
  /** Token ids the model was fed, ending where the answer starts. */
  tokens: number[];
  /** How many of the chat's images the prompt kept: the last ones (a cut drops the oldest first). */
  images: number;
  /** Tokens of the chat the cut left out (0 or absent: the whole chat). */
  truncatedTokens?: number;
}

/** Token counts of one `act` call, as the backend reports them. */
export interface AgentUsage {
  inputTokens?: number;
  outputTokens?: number;
}

/** What `Agent.act` returns: one output per sample asked for, with usage when the backend reports it. */
export interface AgentResponse {
  /** One output per sample; `n` outputs when `n` was asked. */
  outputs: AgentOutput[];
  usage?: AgentUsage;
  /** The prompt the outputs were sampled from, when the agent exposes it (the built-in model). */
  prompt?: AgentPrompt;
}

/** Anything that answers messages with text: a served VLM, a scripted oracle, a local policy. */
export interface Agent {
  readonly specificationVersion: 'v1';
  readonly id: string;
  act(options: AgentActOptions): Promise<AgentResponse>;
  /**
   * Optional: answers many chats in one call (a local model decodes them as one batch). The rollout
   * manager plays episodes in lock step through it when it is there: each turn of every live episode
   * is one call.
   */
  actBatch?(options: AgentActBatchOptions): Promise<AgentResponse[]>;
}
