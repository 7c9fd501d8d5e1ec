import { observationToContent } from '@saccade/agents';
import { createAdamOptimizer, decodeImageData, imageTokenCount, sftStep, type SftExample, type VisionLanguageModel } from '@saccade/models';
import { chatTrajectory, createModelSequenceTokenizer, tokenizeTrajectory } from '@saccade/rollout';
import { InvalidArgumentError, type ImageData, type Message } from '@saccade/spec';
import { loadSftImages, readSftFile, type SftFileRecord, type SftMessage } from './sft-file';

export interface LoadSftExamplesOptions {
  /** Leave system messages out (default false); the built-in model is small and its context short. */
  dropSystem?: boolean;
  /** Examples longer than the model's context (`maxSequenceLength`) are skipped (default) or an error. */
  onTooLong?: 'skip' | 'error';
}

export interface LoadedSftExamples {
  examples: SftExample[];
  /** Ids of the records skipped because they do not fit the model's context. */
  skipped: string[];
}

/** A record's messages with their `<image>` placeholders turned into image parts, in order. */
export function sftMessages(messages: readonly SftMessage[], images: readonly ImageData[], { dropSystem = false }: { dropSystem?: boolean } = {}): Message[] {
  let next = 0;
  const chat: Message[] = [];
  for (const message of messages) {
    const count = message.content.split('<image>').length - 1;
    const own = images.slice(next, next + count);
    next += count;
    if (dropSystem && message.role === 'system') continue;
    chat.push({ role: message.role, content: count === 0 ? message.content : observationToContent({ text: message.content, images: own }) });
  }
  return chat;
}

/**
 * Turns the records of an SFT file into the built-in model's supervised examples, through rollout's
 * tokeniser (the one masked-sequence builder the trainers use): each chat as a trajectory, the loss
 * on the assistant's tokens (every assistant turn of a multi-turn dialogue), images decoded to the
 * model's size.
 */
export async function loadSftExamples(model: VisionLanguageModel, source: string | readonly SftFileRecord[], options: LoadSftExamplesOptions = {}): Promise<LoadedSftExamples> {
  const records = typeof source === 'string' ? await readSftFile(source) : source;
  const tokenizer = await createModelSequenceTokenizer({ imageTokens: imageTokenCount(model.config), tokenizer: model.tokenizer });
  const examples: SftExample[] = [];
  const skipped: string[] = [];
  for (const record of records) {
    const images = await loadSftImages(record);
    // A system message holds no image in these files, so dropping it keeps the placeholders in step.
    const messages = options.dropSystem ? record.messages.filter((message) => message.role !== 'system') : record.messages;
    const { trajectory, images: stored } = chatTrajectory(messages, images, { id: record.id });
    const sequence = tokenizeTrajectory(trajectory, tokenizer);
    if (sequence.inputIds.length > model.config.maxSequenceLength) {
      if (options.onTooLong === 'error') {
        throw new InvalidArgumentError({ argument: `records[${record.id}]`, expected: `at most ${model.config.maxSequenceLength} tokens (the model's context)`, value: `${sequence.inputIds.length} tokens` });
      }
      skipped.push(record.id);
      continue;
    }
    const decoded = await Promise.all(sequence.images.map((reference) => decodeImageData(stored.get(reference.hash)!, model.config.imageSize)));
    examples.push({ tokens: sequence.inputIds, images: decoded, lossMask: sequence.lossMask });
  }
  return { examples, skipped };
}

export interface TrainOnSftExamplesOptions {
  steps: number;
  /** Examples per step (default 4), taken in a fixed rotation. */
  batchSize?: number;
  /** Adam's learning rate (default 3e-3). */
  learningRate?: number;
}

/**
 * A few plain SFT steps of the built-in model (masked cross-entropy, clipping, Adam) on examples,
 * batches taken in order and wrapping around. Returns each step's loss (before its update). For
 * long runs use the trainers' data-parallel loop; this is for small files and checks.
 */
export function trainOnSftExamples(model: VisionLanguageModel, examples: readonly SftExample[], { steps, batchSize = 4, learningRate = 3e-3 }: TrainOnSftExamplesOptions): number[] {
  if (examples.length === 0) throw new InvalidArgumentError({ argument: 'examples', expected: 'at least one SFT example', value: 0 });
  if (!Number.isSafeInteger(steps) || steps < 1) throw new InvalidArgumentError({ argument: 'steps', expected: 'a positive integer', value: steps });
  const optimizer = createAdamOptimizer({ learningRate });
  const losses: number[] = [];
  try {
    for (let step = 0; step < steps; step++) {
      const batch = Array.from({ length: Math.min(batchSize, examples.length) }, (_, index) => examples[(step * batchSize + index) % examples.length]!);
      losses.push(sftStep(model, optimizer, batch).loss);
    }
  } finally {
    optimizer.dispose();
  }
  return losses;
}
