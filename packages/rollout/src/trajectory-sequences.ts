import { InvalidArgumentError, type SequenceTokenizer, type Trajectory } from '@saccade/spec';
import { sampledSequences } from './sampled-sequences';
import { trajectorySuccess } from './trajectory-filter';
import { tokenizeTrajectory, type TokenizeTrajectoryOptions, type TrainingSequence } from './tokenize-trajectory';

/**
 * tokenizeTrajectory's options without `lossTurns`: trajectorySequences picks the turns each
 * sequence trains on itself.
 */
export type TrajectorySequencesOptions = Omit<TokenizeTrajectoryOptions, 'lossTurns'>;

/**
 * A trajectory's training sequences, each exactly the context its turns were generated from under
 * the rollout's history window (`historyWindow`, `view`): one sequence with every turn (VAGEN's
 * multi-turn sequence: each response sees all earlier turns) when the window held the whole
 * episode, else one sequence per turn, the earlier turns of its window as context and the loss on
 * its response only. Every sequence keeps the episode's `totalReward` and `success`.
 *
 * With `recordedTokens` and turns that recorded their prompts (the built-in model's agent), the
 * sequences are sampledSequences': each sampled token in the exact context it was sampled in,
 * the sampler's cuts included.
 *
 * @example
 * // The rollout played with historyWindow 0 and the images-only view (a Markov grid world):
 * const sequences = trajectorySequences(trajectory, tokenizer, { historyWindow: 0, view: 'image' }); // one per turn
 */
export function trajectorySequences(trajectory: Trajectory, tokenizer: SequenceTokenizer, options: TrajectorySequencesOptions = {}): TrainingSequence[] {
  if (typeof trajectory !== 'object' || trajectory === null || !Array.isArray(trajectory.turns)) {
    throw new InvalidArgumentError({ argument: 'trajectory', expected: 'a Trajectory with turns', value: trajectory });
  }
  if (options.recordedTokens) {
    const sampled = sampledSequences(trajectory, tokenizer, {
      ...(options.rewardPlacement ? { rewardPlacement: options.rewardPlacement } : {}),
      ...(options.advantageMask ? { advantageMask: options.advantageMask } : {}),
    });
    if (sampled !== undefined) return sampled;
  }
  const window = options.historyWindow ?? Infinity;
  const turns = trajectory.turns.length;
  if (turns === 0) return [];
  if (window >= turns - 1) return [tokenizeTrajectory(trajectory, tokenizer, { ...options, historyWindow: Infinity, lossTurns: 'all' })];
  const success = trajectorySuccess(trajectory);
  return trajectory.turns.map((_, turn) => ({
    ...tokenizeTrajectory({ ...trajectory, turns: trajectory.turns.slice(0, turn + 1) }, tokenizer, { ...options, lossTurns: 'last' }),
    totalReward: trajectory.totalReward,
    success,
  }));
}
