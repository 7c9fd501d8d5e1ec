/** Fields every run event carries. */
export interface RunEventBase {
  /** ISO 8601 time. */
  time: string;
}

export interface RunStartEvent extends RunEventBase {
  type: 'run-start';
  runName: string;
  /** The resolved config. */
  config?: unknown;
  /** The step the run resumes from (0 for a fresh run). */
  step?: number;
}

export interface RunEndEvent extends RunEventBase {
  type: 'run-end';
  status: 'completed' | 'failed' | 'cancelled';
  step?: number;
  error?: { name: string; message: string };
}

export interface EpisodeStartEvent extends RunEventBase {
  type: 'episode-start';
  episodeId: string;
  envId: string;
  seed: number | null;
  groupId?: string;
  step?: number;
}

export interface TurnEndEvent extends RunEventBase {
  type: 'turn-end';
  episodeId: string;
  /** 0-based turn index. */
  turn: number;
  reward: number;
  rewardTerms?: Record<string, number>;
  action?: string;
  step?: number;
}

export interface EpisodeEndEvent extends RunEventBase {
  type: 'episode-end';
  episodeId: string;
  totalReward: number;
  turns: number;
  terminated: boolean;
  truncated: boolean;
  success?: boolean;
  /** Set when the episode stopped on an error (agent or env); its trajectory carries it too. */
  error?: { name: string; message: string };
  step?: number;
}

export interface RolloutEndEvent extends RunEventBase {
  type: 'rollout-end';
  step: number;
  episodes: number;
  metrics: Record<string, number>;
}

export interface UpdateEndEvent extends RunEventBase {
  type: 'update-end';
  step: number;
  /** e.g. loss, policy_loss, kl, entropy, grad_norm, lr. */
  metrics: Record<string, number>;
}

export interface EvalEndEvent extends RunEventBase {
  type: 'eval-end';
  step: number;
  metrics: Record<string, number>;
}

export interface CheckpointSavedEvent extends RunEventBase {
  type: 'checkpoint-saved';
  step: number;
  /** The checkpoint folder, relative to the run folder. */
  path: string;
}

export interface LogEvent extends RunEventBase {
  type: 'log';
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  step?: number;
  data?: Record<string, unknown>;
}

/** Everything a run reports, one JSON object per line of `events.jsonl`. */
export type RunEvent =
  | RunStartEvent
  | RunEndEvent
  | EpisodeStartEvent
  | TurnEndEvent
  | EpisodeEndEvent
  | RolloutEndEvent
  | UpdateEndEvent
  | EvalEndEvent
  | CheckpointSavedEvent
  | LogEvent;

export type RunEventType = RunEvent['type'];
