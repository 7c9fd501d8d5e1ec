/** Fields every run event carries. */
export interface RunEventBase {
  /** ISO 8601 time. */
  time: string;
}

/** The run started: its name, its resolved config, and the step it resumes from (0 for a fresh run). */
export interface RunStartEvent extends RunEventBase {
  type: 'run-start';
  runName: string;
  /** The resolved config. */
  config?: unknown;
  /** The step the run resumes from (0 for a fresh run). */
  step?: number;
}

/** The run ended: completed, cancelled or failed (with the error), at the step it reached. */
export interface RunEndEvent extends RunEventBase {
  type: 'run-end';
  status: 'completed' | 'failed' | 'cancelled';
  step?: number;
  error?: { name: string; message: string };
}

/** An episode started: its env, seed and group. */
export interface EpisodeStartEvent extends RunEventBase {
  type: 'episode-start';
  episodeId: string;
  envId: string;
  seed: number | null;
  groupId?: string;
  step?: number;
}

/** A turn of an episode ended: its reward, reward terms and action. */
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

/** An episode ended: its total reward, turns, success and the error it stopped on, if any. */
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

/** A rollout phase (a group of episodes for an update) finished at `step`, with its metrics. */
export interface RolloutEndEvent extends RunEventBase {
  type: 'rollout-end';
  step: number;
  episodes: number;
  metrics: Record<string, number>;
}

/** A training update finished at `step`; `metrics` such as loss, kl, entropy, grad_norm, lr. */
export interface UpdateEndEvent extends RunEventBase {
  type: 'update-end';
  step: number;
  /** e.g. loss, policy_loss, kl, entropy, grad_norm, lr. */
  metrics: Record<string, number>;
}

/** A held-out evaluation finished at `step`; `metrics` are flat numbers (success, mean reward, …). */
export interface EvalEndEvent extends RunEventBase {
  type: 'eval-end';
  step: number;
  metrics: Record<string, number>;
}

/** A checkpoint finished writing (renamed into place whole) at `path`, relative to the run folder. */
export interface CheckpointSavedEvent extends RunEventBase {
  type: 'checkpoint-saved';
  step: number;
  /** The checkpoint folder, relative to the run folder. */
  path: string;
}

/** A message for the user, with a level and optional data. */
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

/** The `type` of every run event. */
export type RunEventType = RunEvent['type'];
