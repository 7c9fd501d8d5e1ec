import { isAbsolute, resolve } from 'node:path';
import { InvalidArgumentError } from '@saccade/spec';
import { describeReceived } from './read-task-file';
import { memoryTaskSchema, type VisionQATask, type VisionQATaskInput } from './vision-qa-task';
import type { TaskSource } from './task-source';

/** Options of {@link ArrayTaskSource}. */
export interface ArrayTaskSourceOptions {
  /** Folder that relative image paths are resolved against (default: the working directory). */
  baseDirectory?: string;
}

/** Tasks held in memory (validated once, here). Images may be paths or `ImageData`. */
export class ArrayTaskSource implements TaskSource {
  readonly description = 'tasks (in memory)';
  readonly #tasks: VisionQATask[];

  constructor(tasks: readonly VisionQATaskInput[], { baseDirectory = process.cwd() }: ArrayTaskSourceOptions = {}) {
    if (!Array.isArray(tasks) || tasks.length === 0) {
      throw new InvalidArgumentError({ argument: 'tasks', expected: 'a non-empty array of tasks', value: tasks });
    }
    this.#tasks = tasks.map((input, index) => {
      const parsed = memoryTaskSchema.safeParse(input);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        let value: unknown = input;
        for (const key of issue.path) value = value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined;
        const field = issue.path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('');
        throw new InvalidArgumentError({
          argument: `tasks[${index}]${field}`,
          expected: issue.message,
          value,
          message: `Invalid argument tasks[${index}]${field}: expected ${issue.message}, received ${describeReceived(value)}.`,
        });
      }
      const task = parsed.data as VisionQATask;
      task.images = task.images.map((image) => (typeof image === 'string' && !isAbsolute(image) ? resolve(baseDirectory, image) : image));
      return task;
    });
  }

  async size(): Promise<number> {
    return this.#tasks.length;
  }

  async get(index: number): Promise<VisionQATask> {
    const task = this.#tasks[index];
    if (task === undefined) throw new InvalidArgumentError({ argument: 'index', expected: `an integer from 0 to ${this.#tasks.length - 1}`, value: index });
    return task;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<VisionQATask> {
    yield* this.#tasks;
  }
}
