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
  /**
   * The text the env forced at the start of the action (its `info.forcedPrefix`, e.g. ViGoRL's
   * final `<answer>`): the action is this prefix followed by what the agent wrote, and `tokens`
   * and `logprobs` are that continuation only (recorded with its `prompt`, which ends with the
   * prefix).
   */
  forcedPrefix?: string;
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
  /** What a trainer made of the episode, when a training run stored it (see TrajectoryTraining). */
  training?: TrajectoryTraining;
}

/** Why a trainer played an episode but trained on none of its tokens. */
export type TrainingLeftOut =
  /** It stopped on an error. */
  | 'failed'
  /** GRPO: every episode of its group scored the same (advantage 0). */
  | 'uniform-group'
  /** GRPO: its group was outside the reward-variance top fraction. */
  | 'reward-variance'
  /** The turn cap cut it and over-turn episodes are masked. */
  | 'truncated'
  /** None of its tokens kept a loss (e.g. every response ran out of tokens). */
  | 'no-trained-tokens';

/**
 * An episode as a trainer used it: the phase and step that played it, GRPO's score and advantage,
 * and the training sequences built from it token by token, with the masks and per-token values the
 * losses read. Stored with training runs' episodes so that what a step trained on can be looked at.
 */
export interface TrajectoryTraining {
  /** The phase that played it: a GRPO group, a PPO batch, or a held-out evaluation. */
  phase: 'grpo' | 'ppo' | 'eval';
  /** The step the episode was played for (an evaluation's: the step it evaluated). */
  step: number;
  /** GRPO: what the episode was scored (its return, or 1/0 for success). */
  score?: number;
  /** GRPO: its advantage within its group (broadcast over its advantage-masked tokens). */
  advantage?: number;
  /** Whether any of its tokens carried loss in the update (absent for evaluations). */
  trained?: boolean;
  /** Why it was not trained on. */
  leftOut?: TrainingLeftOut;
  /** The sequences the trainer built from it (none for evaluations or left-out episodes). */
  sequences: TrainedSequence[];
}

/**
 * A training sequence as parallel lists of pieces: each token on the loss or advantage mask is a
 * piece of its own, the runs of context tokens between them are joined into one piece, and an
 * image's tokens are one piece (listed in `imagePieces`).
 */
export interface TrainedSequence {
  /** The decoded text of each piece. */
  pieces: string[];
  /** How many tokens each piece holds. */
  tokens: number[];
  /** The trajectory turn of each piece (-1: the system prompt and template tokens). */
  turns: number[];
  /** REFERENCE §5's M^loss of each piece (1: the token's log-prob is in the loss). */
  loss: number[];
  /** M^adv of each piece (1: the token takes part in advantage estimation). */
  advantageMask: number[];
  /** The advantage each piece's token was trained with (0 off the advantage mask). */
  advantages: number[];
  /** The sampler's log-prob of each loss piece (0 elsewhere), when its turn recorded them. */
  logprobs?: number[];
  /** PPO: the critic's value and the return (GAE's target) of each piece. */
  values?: number[];
  returns?: number[];
  /** Indexes of the pieces that are images. */
  imagePieces: number[];
  /** Tokens cut off on the left to fit the context. */
  truncatedTokens: number;
}
