import type { Trajectory } from '@saccade/spec';

/**
 * What a policy phase reports about each rollout batch beside its success and format rates, as
 * verl and VAGEN users read them: the spread of returns, how long responses and prompts were, how
 * many prompts the sampler had to cut, and how many actions the env refused.
 */
export interface RolloutDiagnostics extends Record<string, number> {
  /** Standard deviation of the episodes' returns (population). */
  rewardStd: number;
  /** Sampled tokens per turn, over the turns that recorded them. */
  responseTokens: number;
  /** Prompt tokens per turn, over the turns that recorded their prompt. */
  promptTokens: number;
  /** Fraction of turns whose prompt the sampler cut to fit the model's context. */
  truncatedPrompts: number;
  /** Fraction of responses that never ended (the token budget ran out: no loss on them). */
  unfinishedResponses: number;
  /** Fraction of the turns that report `action_is_valid` whose action the env refused. */
  invalidActionRate: number;
  /** Fraction of episodes the turn cap cut before the env ended them. */
  truncatedEpisodes: number;
}

/** The diagnostics of a batch of played episodes (failed ones left out). */
export function rolloutDiagnostics(trajectories: readonly Trajectory[]): RolloutDiagnostics {
  const played = trajectories.filter((trajectory) => trajectory.error === undefined);
  let turns = 0;
  let sampledTurns = 0;
  let sampledTokens = 0;
  let promptTurns = 0;
  let promptTokens = 0;
  let unfinished = 0;
  let validityTurns = 0;
  let invalid = 0;
  for (const trajectory of played) {
    for (const turn of trajectory.turns) {
      turns++;
      if (turn.tokens) {
        sampledTurns++;
        sampledTokens += turn.tokens.length;
      }
      if (turn.prompt) {
        promptTurns++;
        promptTokens += turn.prompt.tokens.length;
      }
      if (turn.finishReason === 'length') unfinished++;
      const valid = (turn.info['metrics'] as Record<string, unknown> | undefined)?.['action_is_valid'];
      if (typeof valid === 'boolean') {
        validityTurns++;
        if (!valid) invalid++;
      }
    }
  }
  const ratio = (part: number, whole: number): number => (whole === 0 ? 0 : part / whole);
  return {
    rewardStd: standardDeviation(played.map((trajectory) => trajectory.totalReward)),
    responseTokens: ratio(sampledTokens, sampledTurns),
    promptTokens: ratio(promptTokens, promptTurns),
    truncatedPrompts: truncatedPromptRate(played) ?? 0,
    unfinishedResponses: ratio(unfinished, turns),
    invalidActionRate: ratio(invalid, validityTurns),
    truncatedEpisodes: ratio(played.filter((trajectory) => trajectory.truncated && !trajectory.terminated).length, played.length),
  };
}

/**
 * Fraction of the turns that recorded their prompt (the built-in model's agent does) whose prompt
 * the sampler cut to fit the model's context; undefined when none recorded one. Failed episodes
 * are left out.
 */
export function truncatedPromptRate(trajectories: readonly Trajectory[]): number | undefined {
  const prompts = trajectories.flatMap((trajectory) => (trajectory.error === undefined ? trajectory.turns.flatMap((turn) => (turn.prompt ? [turn.prompt] : [])) : []));
  return prompts.length === 0 ? undefined : prompts.filter((prompt) => (prompt.truncatedTokens ?? 0) > 0).length / prompts.length;
}

/** Population standard deviation (0 for no values). */
export function standardDeviation(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  return Math.sqrt(values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / values.length);
}
