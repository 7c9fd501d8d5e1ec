import type { SequenceTokenizer, TrainingSequence } from '@saccade/rollout';
import type { ImageData, TrainedSequence, TrainingLeftOut, Trajectory, TrajectoryTraining } from '@saccade/spec';
import type { PolicyExample } from './losses/policy-loss';
import type { PpoExample } from './losses/ppo-loss';

/**
 * Where a training phase's episodes go with what the trainer made of them (the runner writes them
 * to the run's trajectory store). Nothing is built for a step the recorder does not want.
 */
export interface EpisodeRecorder {
  /** Whether the episodes of this step (training) or of this evaluation are to be stored. */
  wants(phase: TrajectoryTraining['phase'], step: number): boolean;
  /** Stores the episodes (each with its `training`) and the images they refer to. */
  record(trajectories: readonly Trajectory[], images: ReadonlyMap<string, ImageData>): Promise<void>;
}

/** One played episode as a trainer used it: its sequences with the examples the losses read. */
export interface UsedEpisode {
  trajectory: Trajectory;
  score?: number;
  advantage?: number;
  leftOut?: TrainingLeftOut;
  sequences: { sequence: TrainingSequence; example: PolicyExample | PpoExample }[];
}

/** The episodes with their `training` record: phase, step, GRPO's score and advantage, the sequences token by token. */
export function recordedEpisodes(used: readonly UsedEpisode[], phase: 'grpo' | 'ppo', step: number, tokenizer: SequenceTokenizer): Trajectory[] {
  return used.map(({ trajectory, score, advantage, leftOut, sequences }) => {
    const trained = leftOut === undefined && sequences.some(({ example }) => example.lossMask.includes(1));
    const training: TrajectoryTraining = {
      phase,
      step,
      ...(score === undefined ? {} : { score }),
      ...(advantage === undefined ? {} : { advantage: round(advantage) }),
      trained,
      ...(leftOut === undefined ? (trained ? {} : { leftOut: 'no-trained-tokens' as const }) : { leftOut }),
      sequences: sequences.map(({ sequence, example }) => trainedSequence(sequence, example, tokenizer)),
    };
    return { ...trajectory, training };
  });
}

/** Evaluation episodes with their `training` record (phase and step; no sequences). */
export function recordedEvaluation(trajectories: readonly Trajectory[], step: number): Trajectory[] {
  return trajectories.map((trajectory) => ({ ...trajectory, training: { phase: 'eval', step, sequences: [] } }));
}

/**
 * A training sequence and the example the losses read, as pieces: each loss- or advantage-masked
 * token alone (with its advantage, the sampler's log-prob, PPO's value and return), the context
 * between them joined per turn, each image one piece.
 */
export function trainedSequence(sequence: TrainingSequence, example: PolicyExample | PpoExample, tokenizer: SequenceTokenizer): TrainedSequence {
  const ppo = 'returns' in example ? example : undefined;
  const out: TrainedSequence = { pieces: [], tokens: [], turns: [], loss: [], advantageMask: [], advantages: [], imagePieces: [], truncatedTokens: sequence.truncatedTokens };
  const logprobs: number[] = [];
  const values: number[] = [];
  const returns: number[] = [];
  const push = (ids: number[], turn: number, position: number, masked: boolean): void => {
    out.pieces.push(tokenizer.decode(ids));
    out.tokens.push(ids.length);
    out.turns.push(turn);
    out.loss.push(masked && example.lossMask[position] === 1 ? 1 : 0);
    out.advantageMask.push(masked && sequence.advantageMask[position] === 1 ? 1 : 0);
    out.advantages.push(masked ? round(example.advantages[position] ?? 0) : 0);
    logprobs.push(masked && example.lossMask[position] === 1 ? round(sequence.sampledLogProbs?.[position] ?? 0) : 0);
    values.push(masked ? round(ppo?.oldValues[position] ?? 0) : 0);
    returns.push(masked ? round(ppo?.returns[position] ?? 0) : 0);
  };
  let context: number[] = [];
  let contextTurn = -1;
  const flush = (): void => {
    if (context.length > 0) push(context, contextTurn, -1, false);
    context = [];
  };
  let span = 0;
  for (let position = 0; position < sequence.inputIds.length; position++) {
    const turn = sequence.turnIds[position] ?? -1;
    const image = sequence.imageSpans[span];
    if (image !== undefined && position === image.start) {
      flush();
      out.imagePieces.push(out.pieces.length);
      out.pieces.push(`[image ${span + 1}: ${image.end - image.start} tokens]`);
      out.tokens.push(image.end - image.start);
      out.turns.push(turn);
      for (const list of [out.loss, out.advantageMask, out.advantages, logprobs, values, returns]) list.push(0);
      position = image.end - 1;
      span++;
      continue;
    }
    if (example.lossMask[position] === 1 || sequence.advantageMask[position] === 1) {
      flush();
      push([sequence.inputIds[position]!], turn, position, true);
      continue;
    }
    if (context.length > 0 && turn !== contextTurn) flush();
    contextTurn = turn;
    context.push(sequence.inputIds[position]!);
  }
  flush();
  if (sequence.sampledLogProbs !== undefined) out.logprobs = logprobs;
  if (ppo !== undefined) {
    out.values = values;
    out.returns = returns;
  }
  return out;
}

/** Six significant digits: enough to read, a third of a double's JSON. */
function round(value: number): number {
  return value === 0 || !Number.isFinite(value) ? value : Number(value.toPrecision(6));
}
