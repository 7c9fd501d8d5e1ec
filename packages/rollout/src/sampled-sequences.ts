import type { ImageRef, SequenceTokenizer, Trajectory, Turn } from '@saccade/spec';
import { trajectorySuccess } from './trajectory-filter';
import { sequenceSource, type RewardPlacement, type TrainingSequence } from './tokenize-trajectory';

/** Where sampledSequences puts rewards and which tokens its advantage mask covers. */
export interface SampledSequencesOptions {
  /** Default 'turn'. */
  rewardPlacement?: RewardPlacement;
  /** As tokenizeTrajectory's: `'loss'` (default) or `'generated'` (also the tokens of responses that never ended). */
  advantageMask?: 'loss' | 'generated';
}

/** A turn that recorded what its policy read and wrote. */
type RecordedTurn = Turn & Required<Pick<Turn, 'prompt' | 'tokens'>>;

function isRecorded(turn: Turn): turn is RecordedTurn {
  return turn.prompt !== undefined && Array.isArray(turn.tokens) && turn.tokens.length > 0;
}

/**
 * A trajectory's training sequences built from what the policy read and wrote, as its turns
 * recorded them (`turn.prompt`: the prompt ids after the sampler's cut and the images it kept;
 * `turn.tokens` and `turn.logprobs`): every sampled token sits in exactly the context it was
 * sampled in. Turns go into one sequence while each turn's prompt extends the sequence so far (the
 * whole episode, when no prompt was cut); a turn whose prompt does not (the sampler cut its oldest
 * context, or a history window left turns out) starts a new sequence with its own prompt.
 *
 * The loss covers the sampled tokens only: an end token the chat template adds after a stop string
 * is context, not a target. A response that never ended (`finishReason: 'length'`) is masked out.
 * `sampledLogProbs` holds each trained token's recorded log-probability (0 elsewhere): the old
 * log-probs of the PPO ratio, and what a trainer checks its own against.
 *
 * Returns undefined when a turn has no record (an agent that does not expose its prompt, or a turn
 * that continued a prefix the env forced): tokenise such a trajectory with trajectorySequences.
 *
 * @example
 * const sequences = sampledSequences(trajectory, tokenizer) ?? trajectorySequences(trajectory, tokenizer, options);
 */
export function sampledSequences(trajectory: Trajectory, tokenizer: SequenceTokenizer, options: SampledSequencesOptions = {}): TrainingSequence[] | undefined {
  const turns = trajectory.turns;
  if (turns.length === 0 || !turns.every(isRecorded)) return undefined;
  const placement = options.rewardPlacement ?? 'turn';
  const success = trajectorySuccess(trajectory);
  const sequences: TrainingSequence[] = [];
  let current: TrainingSequence | undefined;
  // Per sequence: the turns in it and each one's end position (-1 when masked out).
  const ends: { turn: number; position: number }[][] = [];

  turns.forEach((turn, index) => {
    const prompt = turn.prompt;
    if (current === undefined || !extends_(prompt.tokens, prompt.images, current)) {
      current = {
        ...sequenceSource(trajectory, tokenizer),
        inputIds: [],
        lossMask: [],
        advantageMask: [],
        endOfTurn: [],
        rewards: [],
        turnIds: [],
        images: [],
        imageSpans: [],
        sampledLogProbs: [],
        totalReward: trajectory.totalReward,
        success,
        truncatedTokens: turn.prompt.truncatedTokens ?? 0,
        // The earlier turns this sequence's first prompt does not hold in full are counted in truncatedTokens.
        droppedTurns: 0,
      };
      sequences.push(current);
      ends.push([]);
    }
    const sequence = current;
    // The prompt's new part (observations, template tokens, an end token after a stop string) is context.
    for (let position = sequence.inputIds.length; position < prompt.tokens.length; position++) push(sequence, prompt.tokens[position]!, index, 0, 0, 0);
    sequence.images = [...prompt.images];
    const trained = turn.finishReason !== 'length';
    const generated = options.advantageMask === 'generated' ? 1 : trained ? 1 : 0;
    turn.tokens.forEach((token, position) => push(sequence, token, index, trained ? 1 : 0, generated, trained ? (turn.logprobs?.[position] ?? 0) : 0));
    const end = sequence.inputIds.length - 1;
    if (trained) sequence.endOfTurn.push(end);
    ends[ends.length - 1]!.push({ turn: index, position: trained ? end : -1 });
  });

  for (const sequence of sequences) {
    const spans = tokenizer.imageSpans(sequence.inputIds);
    if (spans.length !== sequence.images.length) {
      throw new Error(`Trajectory ${trajectory.id}: a recorded prompt has ${spans.length} image(s) in its tokens but ${sequence.images.length} image reference(s).`);
    }
    sequence.imageSpans = spans;
  }
  placeRewards(turns, sequences, ends, placement);
  return sequences;
}

function push(sequence: TrainingSequence, token: number, turn: number, loss: number, advantage: number, logProb: number): void {
  sequence.inputIds.push(token);
  sequence.lossMask.push(loss);
  sequence.advantageMask.push(advantage);
  sequence.rewards.push(0);
  sequence.turnIds.push(turn);
  sequence.sampledLogProbs!.push(logProb);
}

/** Whether a prompt continues the sequence: its ids and images start with the sequence's. */
function extends_(tokens: readonly number[], images: readonly ImageRef[], sequence: TrainingSequence): boolean {
  if (tokens.length < sequence.inputIds.length || images.length < sequence.images.length) return false;
  for (let position = 0; position < sequence.inputIds.length; position++) if (tokens[position] !== sequence.inputIds[position]) return false;
  return sequence.images.every((image, index) => image.hash === images[index]!.hash);
}

/**
 * Turn rewards on their turns' ends ('turn'; a masked-out turn's reward goes to the next turn that
 * kept its loss, or the last one before it), or the episode's total on the last kept end ('sum').
 */
function placeRewards(turns: readonly Turn[], sequences: TrainingSequence[], ends: { turn: number; position: number }[][], placement: RewardPlacement): void {
  const kept = ends.flatMap((entries, sequence) => entries.filter((entry) => entry.position >= 0).map((entry) => ({ ...entry, sequence })));
  const last = kept.at(-1);
  if (last === undefined) return;
  const add = (target: { sequence: number; position: number }, reward: number): void => {
    const rewards = sequences[target.sequence]!.rewards;
    rewards[target.position] = (rewards[target.position] ?? 0) + reward;
  };
  if (placement === 'sum') {
    add(last, turns.reduce((sum, turn) => sum + turn.reward, 0));
    return;
  }
  turns.forEach((turn, index) => add(kept.find((entry) => entry.turn >= index) ?? last, turn.reward));
}
