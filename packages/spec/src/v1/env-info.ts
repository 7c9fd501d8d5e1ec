// An intersection, not an interface with an index signature: optional known keys would have to
// admit `undefined` in the index signature, and every reader of `Object.entries(metrics)` with it.
/**
 * Unweighted metrics of a step, under the names VAGEN's envs and trainers use (snake_case), since
 * they travel as VAGEN's `turn_metrics` / `traj_metrics` on its env protocol. Envs add their own
 * (`answer_score`, `crops`, `similarity`, …).
 */
export type EnvMetrics = Record<string, number | boolean> & {
  /** The episode's task is solved (VAGEN's trajectory metric). */
  success?: boolean | number;
  /** The response kept the output format the env asks for (tags, answer shape). */
  format_correct?: boolean;
  /** The env could act on the response (a move it knows, an answer it could read). */
  action_is_valid?: boolean;
  /** The action changed the state (the player moved, a box was pushed). */
  action_is_effective?: boolean;
};

/**
 * The `info` record an env returns with each reset and step. The keys below are the ones Saccade's
 * envs, wrappers and readers share, each with one spelling: Saccade's own keys in camelCase,
 * metrics in VAGEN's snake_case inside `metrics`. Envs may add their own keys.
 */
export interface EnvInfo {
  /**
   * Named, already weighted reward terms whose sum is the step's reward (e.g. `{format: 0.5,
   * success: 9}`), so a user sees why a reward was given.
   */
  rewardTerms?: Record<string, number>;
  /** The terms before the reward-terms wrapper weighted them, where one did. */
  unweightedRewardTerms?: Record<string, number>;
  /**
   * Unweighted metrics of the step, e.g. `action_is_valid`, `action_is_effective`, `success`,
   * `format_correct`.
   */
  metrics?: EnvMetrics;
  /** Why the response broke the format or could not be read, in words the model can act on. */
  formatError?: string;
  /** False when the env could not act on the response (the viewer marks the turn). */
  valid?: boolean;
  /**
   * Text the next action must start with (ViGoRL's forced final answer once the crops are spent):
   * the episode loop puts it before the agent's continuation.
   */
  forcedPrefix?: string;
  /**
   * Where in the first image the answer is, `[x1, y1, x2, y2]` in its pixels (V*-style tasks), given
   * at reset. Readers check its shape: an env over a task file passes on what the file holds.
   */
  targetBox?: readonly number[];
  /**
   * Where each object the question names is, when it names more than one (V*'s relative position:
   * two), the asked-about one first, as `targetBox`; given at reset. The looking oracle looks at each.
   */
  targetBoxes?: readonly (readonly number[])[];
  /** What cut the episode off when `truncated` is true, e.g. `'time-limit'`, `'tool-use-turn-limit'`. */
  truncatedBy?: string;
  /** The seed the episode was reset with. */
  seed?: number;
  /** The task's id in its source (a task file's `id`). */
  taskId?: string;
  /** The task's family (`chart`, `document`, …), by which evaluations are broken down. */
  taskFamily?: string;
  /**
   * Tool calls of the turn, as the tool-use wrapper records them: an array of @saccade/core's
   * `ToolCallRecord` (its shape is core's; stored trajectories hold it as written).
   */
  toolCalls?: unknown;
  /** Tool calls so far in the episode (the tool-use wrapper's). */
  toolCallCount?: number;
  [key: string]: unknown;
}

/**
 * Whether a turn's response kept the format: `metrics.format_correct`, or, in trajectories stored
 * before that was the one spelling, the top-level `formatCorrect` the grid envs wrote. Undefined
 * when the turn says neither (a tool turn, an env without a format).
 */
export function formatCorrectOf(info: Readonly<Record<string, unknown>> | undefined): boolean | undefined {
  const metrics = info?.['metrics'];
  const current = typeof metrics === 'object' && metrics !== null ? (metrics as Record<string, unknown>)['format_correct'] : undefined;
  const format = current ?? info?.['formatCorrect'];
  return typeof format === 'boolean' ? format : undefined;
}
