import { summarizeToolUse } from '@saccade/runs';
import { summarizeEpisodes } from '@saccade/core';
import type { Trajectory } from '@saccade/spec';
import type { PlayedBatch, PolicyEpisodes } from './policy-episodes';
import { truncatedPromptRate } from './rollout-diagnostics';

/**
 * How a policy did on held-out seeds: success rate, mean reward, format rate, mean turns, and how
 * it used its tools.
 */
export interface PolicyEvaluation {
  episodes: number;
  /** Fraction of episodes that ended in success (`info.metrics.success`). */
  success: number;
  meanReward: number;
  /** Fraction of the turns that report a format (`info.formatCorrect` or `info.metrics.format_correct`) that were well formed. */
  formatRate: number;
  meanTurns: number;
  /**
   * Fraction of turns whose prompt the agent cut to fit the model's context, when the agent recorded
   * its prompts (the built-in model does): a cut drops the episode's start, its first image with it.
   */
  truncatedPrompts?: number;
  /** Metrics of looking, when the episodes had tools (a `ToolUseWrapper` reported calls). */
  looking?: LookingMetrics;
}

/** How a policy used its tools: from the `toolCalls` records the tool-use wrapper leaves in each turn's info. */
export interface LookingMetrics {
  /** Tool calls per episode (every `<tool_call>` read, valid or not). */
  toolCallsPerEpisode: number;
  /** Fraction of those calls that gave no result (unreadable, unknown tool, bad arguments, a failure). */
  invalidCallRate: number;
  /** Fraction of episodes with a call whose region held the whole target (NaN for tasks without a `targetBox`). */
  targetHitRate: number;
  /** Success among episodes whose look hit the target (NaN when none did or no target is known). */
  successWithHit: number;
  /** Success among the other episodes (NaN when every episode hit or no target is known). */
  successWithoutHit: number;
  /** Tool calls per successful episode (NaN when none succeeded or no target is known). */
  callsPerSolvedEpisode: number;
}

/**
 * A sampled held-out evaluation besides the greedy one (verl's `val_kwargs`: `do_sample`,
 * `temperature`, `n`): each seed played `samples` times at `temperature`, its success the mean over
 * all of them (mean@n). It measures the distribution the policy samples and RL trains, where a
 * greedy answer can flip on a small change of a close margin.
 */
export interface EvalSampling {
  temperature: number;
  samples: number;
}

/** Checks an EvalSampling (temperature > 0, samples a positive integer). */
export function checkEvalSampling(sampling: EvalSampling): void {
  if (!(sampling.temperature > 0) || !Number.isFinite(sampling.temperature)) throw new RangeError(`evalSampling.temperature: expected a number > 0 (0 is the greedy evaluation, always run); got ${sampling.temperature}.`);
  if (!Number.isInteger(sampling.samples) || sampling.samples < 1) throw new RangeError(`evalSampling.samples: expected an integer ≥ 1; got ${sampling.samples}.`);
}

/**
 * Episodes of the policy on the given seeds, played by the rollout manager, summarised: greedy, or
 * with `sampling` each seed `samples` times at its temperature (the same sampling seed every time,
 * so evaluations at different steps draw alike).
 */
export async function evaluatePolicy(
  episodes: PolicyEpisodes,
  seeds: readonly number[],
  options: { step?: number; concurrency?: number; onPlayed?: (batch: PlayedBatch) => Promise<void>; sampling?: EvalSampling } = {},
): Promise<PolicyEvaluation> {
  const sampling = options.sampling;
  if (sampling) checkEvalSampling(sampling);
  // Ids `e<step>-…` (greedy) and `v<step>-…` (sampled): apart from the training episodes of the same step (`s<step>-…`).
  const played = await episodes.play(seeds, {
    temperature: sampling?.temperature ?? 0,
    seed: 0,
    ...(sampling ? { groupSize: sampling.samples } : {}),
    concurrency: options.concurrency ?? 200,
    ...(options.step === undefined ? {} : { step: options.step, batchId: `${sampling ? 'v' : 'e'}${options.step}` }),
  });
  await options.onPlayed?.(played);
  return summarizeTrajectories(played.trajectories);
}

/** Success rate, mean return, format rate and mean turns of played episodes (core's summary), and their looking metrics. */
export function summarizeTrajectories(trajectories: readonly Trajectory[]): PolicyEvaluation {
  const { episodes, success, meanReward, formatRate, meanTurns } = summarizeEpisodes(trajectories);
  const looking = lookingMetrics(trajectories);
  const truncatedPrompts = truncatedPromptRate(trajectories);
  return { episodes, success, meanReward, formatRate: formatRate ?? 0, meanTurns, ...(truncatedPrompts === undefined ? {} : { truncatedPrompts }), ...(looking === undefined ? {} : { looking }) };
}

/** An evaluation as flat event metrics: its numbers and the looking metrics beside them, NaN left out. */
export function evaluationMetrics({ looking, ...numbers }: PolicyEvaluation): Record<string, number> {
  const metrics: Record<string, number> = { ...numbers };
  for (const [key, value] of Object.entries(looking ?? {})) if (Number.isFinite(value)) metrics[key] = value;
  return metrics;
}

/** Looking metrics of played episodes, or undefined when no turn went through a tool-use wrapper. */
export function lookingMetrics(trajectories: readonly Trajectory[]): LookingMetrics | undefined {
  if (!trajectories.some((trajectory) => trajectory.turns.some((turn) => turn.info['toolCallCount'] !== undefined))) return undefined;
  const tools = summarizeToolUse(trajectories);
  const orNaN = (value: number | null | undefined) => value ?? Number.NaN;
  return {
    toolCallsPerEpisode: tools.callsPerEpisode,
    invalidCallRate: tools.calls === 0 ? 0 : tools.invalidCalls / tools.calls,
    targetHitRate: orNaN(tools.target?.hitRate),
    successWithHit: orNaN(tools.target?.successWithHit),
    successWithoutHit: orNaN(tools.target?.successWithoutHit),
    callsPerSolvedEpisode: orNaN(tools.target?.callsPerSolvedEpisode),
  };
}
