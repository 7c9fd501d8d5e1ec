import type { AgentFinishReason } from './agent';
import type { ImageMediaType } from './image-data';

/** An image in a stored trajectory, by content hash; the bytes sit in `images/<hash>.<ext>`. */
export interface ImageRef {
  /** Hex SHA-256 of the encoded bytes. */
  hash: string;
  mediaType: ImageMediaType;
  width?: number;
  height?: number;
}

/** An observation as stored: text with `<image>` placeholders and one reference per image. */
export interface StoredObservation {
  text: string;
  images: ImageRef[];
}

/** How long a turn's parts took, in milliseconds: the agent's answer and the env's step. */
export interface TurnTiming {
  /** Time the agent took to answer, in milliseconds. */
  agentMs: number;
  /** Time the env took to step, in milliseconds. */
  envMs: number;
}

/** One turn: what the agent saw, what it answered and what the env gave back. */
export interface Turn {
  /** The observation the agent acted on. */
  observation: StoredObservation;
  /** The agent's raw text. */
  action: string;
  reward: number;
  rewardTerms: Record<string, number>;
  terminated: boolean;
  truncated: boolean;
  info: Record<string, unknown>;
  timing: TurnTiming;
  /**
   * Why the agent's generation stopped, when the agent said: `'length'` means the response never
   * ended (no end token), so a trainer masks it out.
   */
  finishReason?: AgentFinishReason;
  /** The action's token ids as the agent returned them (a local model, or a server that returns them). */
  tokens?: number[];
  /** Log-probability of each of `tokens` under the distribution the policy sampled them from. */
  logprobs?: number[];
  /**
   * The prompt `tokens` were sampled from, as the agent read it (its ids after any cut to fit the
   * context, and the images it kept), when the agent exposes it: a trainer scores the sampled
   * tokens in exactly this context.
   */
  prompt?: TurnPrompt;
}

/** A turn's prompt as the policy read it. */
export interface TurnPrompt {
  tokens: number[];
  /** The images of the prompt, in the order of their tokens. */
  images: ImageRef[];
  /** Tokens of the chat the agent cut to fit its context (absent: none). */
  truncatedTokens?: number;
}

/** The error an episode stopped on (agent or env), by name and message. */
export interface TrajectoryError {
  name: string;
  message: string;
}

/** One episode, stored as one JSONL line. */
export interface Trajectory {
  id: string;
  envId: string;
  seed: number | null;
  agentId: string;
  /** Trajectories sampled from the same start share a group (GRPO). */
  groupId?: string;
  systemPrompt?: string;
  turns: Turn[];
  /** The observation after the last step. */
  finalObservation?: StoredObservation;
  totalReward: number;
  terminated: boolean;
  truncated: boolean;
  /** Set when the episode stopped on an error. */
  error?: TrajectoryError;
  /** ISO 8601 time. */
  startedAt: string;
  /** ISO 8601 time. */
  endedAt?: string;
  metadata?: Record<string, unknown>;
}
