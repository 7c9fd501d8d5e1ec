import { oracleAnswer, targetBoxOf, type BoundingBox, type ImageSize, type VisionQATask } from '@saccade/core';
import { contentHash, loadImage, recordedImageSize } from '@saccade/image';
import { InvalidArgumentError, type ImageData, type Message } from '@saccade/spec';

/** What a scripted agent knows of a task: where the answer lies and what to answer. */
export interface GroundTruth {
  taskId: string;
  answerType: VisionQATask['answerType'];
  /** A correct answer as a response writes it: an option's letter, `(x, y)` for a click, the answer text. */
  answer: string;
  /** Wrong answers the agent may give instead (the other options' letters); empty for clicks (it draws wrong points). */
  wrongAnswers: string[];
  /** Where the answer lies, `[x1, y1, x2, y2]`. */
  box: BoundingBox;
  size: ImageSize;
  /** What to call the target in thoughts: `star`, `button`, … */
  label: string;
}

/** The ground truth of a task that says where its answer lies; undefined for a task without a target box. */
export function groundTruthOf(task: VisionQATask, size: ImageSize): GroundTruth | undefined {
  const box = targetBoxOf(task);
  if (box === undefined) return undefined;
  const answer = oracleAnswer(task);
  const metadata = task.metadata ?? {};
  const target = metadata.target as { shape?: unknown } | undefined;
  const label = typeof target?.shape === 'string' ? target.shape : typeof metadata.role === 'string' ? metadata.role.replaceAll('-', ' ') : 'target';
  const wrongAnswers = task.answerType === 'multiple-choice' && task.choices !== undefined ? task.choices.map((_, index) => String.fromCharCode(65 + index)).filter((letter) => letter !== answer) : [];
  return { taskId: task.id, answerType: task.answerType, answer, wrongAnswers, box, size, label };
}

/** The first image of a chat (the task's original). */
export function firstImage(messages: readonly Message[]): ImageData | undefined {
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const part of message.content) if (part.type === 'image') return part.image;
  }
  return undefined;
}

/**
 * Finds a task's ground truth from the chat it appears in, by the content hash of the chat's first
 * image: how a scripted agent with privileged knowledge (like the oracle) recognises its episode.
 */
export class TaskLookup {
  readonly #entries = new Map<string, GroundTruth>();
  // The same image bytes come back on every call of an episode: hash them once.
  #hashes = new WeakMap<Uint8Array, string>();

  /** A lookup over tasks (procedural, from a file, in memory); tasks without a target box are skipped. */
  static async fromTasks(tasks: Iterable<VisionQATask> | AsyncIterable<VisionQATask>): Promise<TaskLookup> {
    const lookup = new TaskLookup();
    for await (const task of tasks) await lookup.add(task);
    return lookup;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Adds a task; returns its ground truth, or undefined when the task does not say where its answer lies. */
  async add(task: VisionQATask): Promise<GroundTruth | undefined> {
    const source = task.images[0];
    if (source === undefined) throw new InvalidArgumentError({ argument: 'task.images', expected: 'a task with an image', value: task.id });
    const image: ImageData = typeof source === 'string' ? await loadImage(source) : source;
    const size = await recordedImageSize(image);
    const truth = groundTruthOf(task, size);
    if (truth !== undefined) this.#entries.set(contentHash(image.data), truth);
    return truth;
  }

  /** The ground truth of the task whose image opens the chat, or undefined. */
  find(messages: readonly Message[]): GroundTruth | undefined {
    const image = firstImage(messages);
    if (image === undefined) return undefined;
    let hash = this.#hashes.get(image.data);
    if (hash === undefined) {
      hash = contentHash(image.data);
      this.#hashes.set(image.data, hash);
    }
    return this.#entries.get(hash);
  }
}
