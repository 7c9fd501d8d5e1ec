import { InvalidArgumentError } from '@saccade/spec';
import type { VisionQATask } from './vision-qa-task';

/**
 * Where a vision-QA env gets its tasks: a task file, an array, or (later) a procedural generator.
 * Two ways in: random access by index (the env maps a seed to an index, so the same seed gives
 * the same task) and streaming in order (for evaluation sweeps and converters).
 *
 * A generator implements it in a few lines: `size()` returns `Infinity`, `get(index)` builds the
 * task from the index as its seed, and the iterator yields `get(0)`, `get(1)`, … until stopped.
 */
export interface TaskSource {
  /** Where the tasks come from, for messages: a file path, `tasks (in memory)`, a generator's name. */
  readonly description: string;
  /** How many tasks there are; `Infinity` for a generator that makes a task from any index. */
  size(): Promise<number>;
  /** The task at `index` (0 ≤ index < size()); the same index always gives the same task. */
  get(index: number): Promise<VisionQATask>;
  /** Every task, in order, streamed. */
  [Symbol.asyncIterator](): AsyncIterator<VisionQATask>;
  /** Frees open files or workers. Optional; calling it twice is allowed. */
  close?(): Promise<void>;
}

/** The index a seed picks: `seed mod size` (never negative), or the seed itself for an endless source. */
export function indexForSeed(seed: number, size: number): number {
  const whole = Math.trunc(seed);
  if (!Number.isFinite(size)) return Math.abs(whole);
  return ((whole % size) + size) % size;
}

/** The task an episode plays: `options.taskIndex` when given (checked), else the seed's (a random seed when none). */
export async function drawTask(source: TaskSource, { seed, taskIndex }: { seed?: number; taskIndex?: unknown }): Promise<{ task: VisionQATask; index: number; seed: number }> {
  const size = await source.size();
  if (taskIndex !== undefined && (typeof taskIndex !== 'number' || !Number.isInteger(taskIndex) || taskIndex < 0 || taskIndex >= size)) {
    throw new InvalidArgumentError({ argument: 'options.taskIndex', expected: `an integer from 0 to ${size - 1}`, value: taskIndex });
  }
  const episodeSeed = seed ?? Math.floor(Math.random() * 2 ** 31);
  const index = (taskIndex as number | undefined) ?? indexForSeed(episodeSeed, size);
  return { task: await source.get(index), index, seed: episodeSeed };
}
