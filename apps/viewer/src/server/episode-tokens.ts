import { tokenizeTrajectory } from '@saccade/rollout';
import type { SequenceTokenizer, Trajectory } from '@saccade/spec';

/** An episode as one training sequence, for the token view: pieces of text with their masks. */
export interface EpisodeTokens {
  tokenizer: string;
  /** One entry per token; an image's pad tokens are one entry with `image` set. */
  tokens: { text: string; loss: 0 | 1; advantage: 0 | 1; turn: number; reward?: number; image?: number }[];
  /** The episode's advantage on its advantage-masked tokens, when its group gives one; see `groupAdvantage`. */
  advantageValue?: number;
  /** How `advantageValue` was found. */
  advantageSource?: string;
  lossTokens: number;
  totalTokens: number;
}

let tokenizer: Promise<SequenceTokenizer> | undefined;

/** The tokens shown per image (the built-in model's template puts `imageTokens` pads per image). */
const IMAGE_TOKENS = 16;

/**
 * Tokenises an episode with rollout's `tokenizeTrajectory` (the sequence every trainer consumes)
 * and the built-in model's chat template. The advantage shown is GRPO's group-normalised one,
 * (R − mean of the group) / (std of the group + 1e-6), computed from the stored rewards of the
 * episode's group: a trainer's own advantages are not in the run folder. @saccade/models (an
 * optional peer) is loaded on the first call, so a viewer that never shows tokens does not load
 * TensorFlow.js.
 */
export async function episodeTokens(trajectory: Trajectory, groupRewards?: readonly number[]): Promise<EpisodeTokens> {
  tokenizer ??= import('@saccade/models').then((models) => models.createModelSequenceTokenizer({ imageTokens: IMAGE_TOKENS }));
  const sequenceTokenizer = await tokenizer;
  const sequence = tokenizeTrajectory(trajectory, sequenceTokenizer);
  const tokens: EpisodeTokens['tokens'] = [];
  let span = 0;
  for (let position = 0; position < sequence.inputIds.length; position++) {
    const image = sequence.imageSpans[span];
    if (image !== undefined && position === image.start) {
      tokens.push({ text: `[image ${span + 1}: ${image.end - image.start} tokens]`, loss: 0, advantage: 0, turn: sequence.turnIds[position] ?? -1, image: span });
      position = image.end - 1;
      span++;
      continue;
    }
    const entry: EpisodeTokens['tokens'][number] = {
      text: sequenceTokenizer.decode([sequence.inputIds[position]!]),
      loss: sequence.lossMask[position] === 1 ? 1 : 0,
      advantage: sequence.advantageMask[position] === 1 ? 1 : 0,
      turn: sequence.turnIds[position] ?? -1,
    };
    const reward = sequence.rewards[position] ?? 0;
    if (reward !== 0 || sequence.endOfTurn.includes(position)) entry.reward = reward;
    tokens.push(entry);
  }
  const result: EpisodeTokens = {
    tokenizer: sequence.tokenizer,
    tokens,
    lossTokens: sequence.lossMask.reduce((sum, value) => sum + value, 0),
    totalTokens: sequence.inputIds.length,
  };
  if (groupRewards !== undefined && groupRewards.length > 1) {
    result.advantageValue = groupAdvantage(trajectory.totalReward, groupRewards);
    result.advantageSource = `GRPO, group of ${groupRewards.length}: (R − mean) / (std + 1e-6)`;
  }
  return result;
}

/** GRPO's outcome advantage of a reward within its group (population standard deviation). */
export function groupAdvantage(reward: number, group: readonly number[]): number {
  const mean = group.reduce((sum, value) => sum + value, 0) / group.length;
  const variance = group.reduce((sum, value) => sum + (value - mean) ** 2, 0) / group.length;
  return (reward - mean) / (Math.sqrt(variance) + 1e-6);
}
