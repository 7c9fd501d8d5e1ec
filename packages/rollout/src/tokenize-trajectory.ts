import { PROMPT_VIEWS, type PromptView } from '@saccade/core';
import { IMAGE_PLACEHOLDER, InvalidArgumentError, type ImageRef, type SequenceMessage, type SequenceTokenizer, type Trajectory } from '@saccade/spec';
import { trajectorySuccess } from './trajectory-filter';

/** Where rewards sit in the sequence (REFERENCE §5). */
export type RewardPlacement =
  /** Turn i's reward on its end-of-turn token (VAGEN with multi-turn rewards on). */
  | 'turn'
  /** The episode's total reward on the last end-of-turn token. */
  | 'sum';

/**
 * How tokenizeTrajectory builds a sequence: where rewards go, how much history and which view of
 * the prompt it keeps, and its length cap.
 */
export interface TokenizeTrajectoryOptions {
  /** Default 'turn'. */
  rewardPlacement?: RewardPlacement;
  /**
   * Earlier turns kept before the last one (VAGEN's `window_size`): the sequence holds the system
   * prompt and the last `historyWindow + 1` turns, the context the last turn was generated from.
   * Default: all turns.
   */
  historyWindow?: number;
  /** Longest sequence; longer ones lose tokens on the left (never part of an image). Default: no limit. */
  maxLength?: number;
  /**
   * What of the env's text the sequence keeps, as the rollout's prompts did (`buildMessages`'s
   * view): `'full'` (default), `'no-system'` (no system prompt) or `'image'` (no system prompt, observations as their images only).
   */
  view?: PromptView;
  /**
   * Which turns' responses carry the loss: `'all'` (default, VAGEN's multi-turn sequence) or
   * `'last'` (the earlier turns are context only: one sequence per turn when the history window
   * is shorter than the episode; see trajectorySequences).
   */
  lossTurns?: 'all' | 'last';
  /**
   * Use each turn's recorded `tokens` (what the policy sampled) for its response instead of
   * encoding its text. Only for the tokenizer of the model that played. Default false.
   */
  recordedTokens?: boolean;
  /**
   * Which tokens take part in advantage estimation: `'loss'` (default, as in VAGEN's runs: equal
   * to `lossMask`) or `'generated'` (every generated token, also of responses the loss leaves out:
   * cut off by the length limit, or before the last turn with `lossTurns: 'last'`), so that GAE
   * carries values through them.
   */
  advantageMask?: 'loss' | 'generated';
}

/** A trajectory as one training sequence: all arrays are as long as `inputIds`. */
export interface TrainingSequence {
  trajectoryId: string;
  groupId?: string;
  envId: string;
  seed: number | null;
  agentId: string;
  /** The `SequenceTokenizer` that made it. */
  tokenizer: string;
  inputIds: number[];
  /** 1 on generated tokens (each response and its end token), 0 on system, observations and images. */
  lossMask: number[];
  /** The tokens that take part in advantage estimation: `lossMask` by default (as in VAGEN's runs); see the `advantageMask` option. */
  advantageMask: number[];
  /** Positions of the last generated token of each turn that kept its loss, increasing. */
  endOfTurn: number[];
  /** Per-token rewards, only ever on end-of-turn positions. */
  rewards: number[];
  /** The trajectory turn each token belongs to; -1 for the system prompt and template tokens. */
  turnIds: number[];
  /** The images in the order their tokens appear. */
  images: ImageRef[];
  /** Each image's tokens `[start, end)`, markers included. */
  imageSpans: { start: number; end: number }[];
  /** The episode's total reward (every turn, kept or not). */
  totalReward: number;
  success: boolean;
  /** Tokens cut off on the left to fit `maxLength` (sampledSequences: the first prompt's cut). */
  truncatedTokens: number;
  /** Turns left out by the history window. */
  droppedTurns: number;
  /**
   * Each token's log-probability as the policy sampled it (the trajectory's `turn.logprobs`), 0 off
   * the loss mask: set by sampledSequences, the old log-probs of the PPO ratio.
   */
  sampledLogProbs?: number[];
}

/**
 * Tokenises a trajectory into one training sequence (REFERENCE §5): system, user(obs0),
 * assistant(resp0), user(obs1), … in the tokenizer's chat template, with images expanded to the
 * model's image tokens.
 *
 * - `lossMask` is 1 on each response and its end token; `advantageMask` equals it.
 * - `endOfTurn` marks each turn's end token; a response that never ended (`finishReason: 'length'`)
 *   is masked out entirely and has no end of turn.
 * - `rewards`: turn i's reward on its end of turn (`'turn'`), or the episode's total on the last end
 *   of turn (`'sum'`). A masked-out turn's reward moves to the next turn that kept its loss (or, for
 *   the last turns, the one before), so rewards only sit where a trainer reads them.
 * - `historyWindow` keeps the last turns only; `maxLength` cuts tokens on the left.
 *
 * @example
 * const tokenizer = await createQwen25SequenceTokenizer({ imagePadTokens: 64 });
 * const sequence = tokenizeTrajectory(trajectory, tokenizer, { rewardPlacement: 'turn', historyWindow: 5, maxLength: 4096 });
 */
export function tokenizeTrajectory(
  trajectory: Trajectory,
  tokenizer: SequenceTokenizer,
  options: TokenizeTrajectoryOptions = {},
): TrainingSequence {
  if (typeof trajectory !== 'object' || trajectory === null || !Array.isArray(trajectory.turns)) {
    throw new InvalidArgumentError({ argument: 'trajectory', expected: 'a Trajectory with turns', value: trajectory });
  }
  const placement = options.rewardPlacement ?? 'turn';
  if (placement !== 'turn' && placement !== 'sum') {
    throw new InvalidArgumentError({ argument: 'rewardPlacement', expected: "'turn' or 'sum'", value: placement });
  }
  const window = options.historyWindow ?? Infinity;
  if (!(window === Infinity || (Number.isSafeInteger(window) && window >= 0))) {
    throw new InvalidArgumentError({ argument: 'historyWindow', expected: 'an integer ≥ 0 or Infinity', value: window });
  }
  const maxLength = options.maxLength ?? Infinity;
  if (!(maxLength === Infinity || (Number.isSafeInteger(maxLength) && maxLength >= 1))) {
    throw new InvalidArgumentError({ argument: 'maxLength', expected: 'an integer ≥ 1 or Infinity', value: maxLength });
  }

  const view = options.view ?? 'full';
  if (!PROMPT_VIEWS.includes(view)) throw new InvalidArgumentError({ argument: 'view', expected: PROMPT_VIEWS.map((name) => `'${name}'`).join(' | '), value: view });
  const lossTurns = options.lossTurns ?? 'all';
  if (lossTurns !== 'all' && lossTurns !== 'last') throw new InvalidArgumentError({ argument: 'lossTurns', expected: "'all' or 'last'", value: lossTurns });
  const advantageSelection = options.advantageMask ?? 'loss';
  if (advantageSelection !== 'loss' && advantageSelection !== 'generated') {
    throw new InvalidArgumentError({ argument: 'advantageMask', expected: "'loss' or 'generated'", value: advantageSelection });
  }

  const firstTurn = Math.max(0, trajectory.turns.length - (window === Infinity ? Infinity : window + 1));
  const turns = trajectory.turns.slice(firstTurn);
  const messages: SequenceMessage[] = [];
  // Per message: the trajectory turn it belongs to (-1 for the system prompt).
  const messageTurn: number[] = [];
  if (view === 'full' && trajectory.systemPrompt !== undefined && trajectory.systemPrompt.length > 0) {
    messages.push({ role: 'system', text: trajectory.systemPrompt, images: [] });
    messageTurn.push(-1);
  }
  const assistantMessage: number[] = [];
  turns.forEach((turn, index) => {
    const text = view === 'image' ? IMAGE_PLACEHOLDER.repeat(turn.observation.images.length) : turn.observation.text;
    messages.push({ role: 'user', text, images: turn.observation.images });
    messageTurn.push(firstTurn + index);
    assistantMessage.push(messages.length);
    // A forced prefix's tokens are not among the sampled ones: such an action is encoded from its text.
    messages.push({ role: 'assistant', text: turn.action, images: [], ...(options.recordedTokens && turn.tokens && turn.forcedPrefix === undefined ? { tokens: turn.tokens } : {}) });
    messageTurn.push(firstTurn + index);
  });

  const chat = tokenizer.encodeChat(messages);
  const length = chat.inputIds.length;
  const generated = chat.generatedMask.slice();
  const lossMask = chat.generatedMask.slice();
  const turnIds = chat.messageIndex.map((message) => (message < 0 ? -1 : (messageTurn[message] ?? -1)));
  // End of turn per kept turn, or -1 for a response the loss leaves out: one that never ended, or
  // (lossTurns 'last') any turn before the last.
  const ends = turns.map((turn, index) => {
    const message = assistantMessage[index] as number;
    if (turn.finishReason !== 'length' && (lossTurns === 'all' || index === turns.length - 1)) return chat.messageEnds[message] as number;
    for (let i = 0; i < length; i++) if (chat.messageIndex[i] === message) lossMask[i] = 0;
    return -1;
  });

  const rewards = new Array<number>(length).fill(0);
  const kept = ends.filter((position) => position >= 0);
  if (lossTurns === 'last') {
    // One turn trains: its own reward (or the episode's total) on its end.
    const last = kept[0];
    if (last !== undefined) rewards[last] = placement === 'sum' ? trajectory.turns.reduce((sum, turn) => sum + turn.reward, 0) : (turns.at(-1)?.reward ?? 0);
  } else if (placement === 'sum') {
    const last = kept[kept.length - 1];
    if (last !== undefined) rewards[last] = trajectory.turns.reduce((sum, turn) => sum + turn.reward, 0);
  } else {
    let carried = 0;
    turns.forEach((turn, index) => {
      const position = ends[index] as number;
      carried += turn.reward;
      if (position >= 0) {
        rewards[position] = (rewards[position] ?? 0) + carried;
        carried = 0;
      }
    });
    // Rewards of masked-out turns at the end go back to the last turn that kept its loss.
    const last = kept[kept.length - 1];
    if (carried !== 0 && last !== undefined) rewards[last] = (rewards[last] ?? 0) + carried;
  }

  let images = collectImages(messages);
  let imageSpans = chat.imageSpans;
  let cut = 0;
  if (length > maxLength) {
    cut = length - maxLength;
    // Never keep part of an image: its features would not line up with its tokens.
    for (const span of imageSpans) if (span.start < cut && cut < span.end) cut = span.end;
    const keptImages = imageSpans.map((span) => span.start >= cut);
    images = images.filter((_, index) => keptImages[index]);
    imageSpans = imageSpans.filter((span) => span.start >= cut).map((span) => ({ start: span.start - cut, end: span.end - cut }));
  }
  const slice = <T>(values: T[]): T[] => (cut === 0 ? values : values.slice(cut));
  const finalLoss = slice(lossMask);
  return {
    ...sequenceSource(trajectory, tokenizer),
    inputIds: slice(chat.inputIds),
    lossMask: finalLoss,
    advantageMask: advantageSelection === 'loss' ? finalLoss.slice() : slice(generated),
    endOfTurn: kept.filter((position) => position >= cut).map((position) => position - cut),
    rewards: slice(rewards),
    turnIds: slice(turnIds),
    images,
    imageSpans,
    totalReward: trajectory.totalReward,
    success: trajectorySuccess(trajectory),
    truncatedTokens: cut,
    droppedTurns: firstTurn,
  };
}

/** Which trajectory and tokenizer a training sequence came from (its first fields). */
export function sequenceSource(trajectory: Trajectory, tokenizer: SequenceTokenizer): Pick<TrainingSequence, 'trajectoryId' | 'groupId' | 'envId' | 'seed' | 'agentId' | 'tokenizer'> {
  return {
    trajectoryId: trajectory.id,
    ...(trajectory.groupId === undefined ? {} : { groupId: trajectory.groupId }),
    envId: trajectory.envId,
    seed: trajectory.seed,
    agentId: trajectory.agentId,
    tokenizer: tokenizer.name,
  };
}

function collectImages(messages: readonly SequenceMessage[]): ImageRef[] {
  const images: ImageRef[] = [];
  for (const message of messages) if (message.role === 'user') images.push(...message.images);
  return images;
}
