import { randomBytes } from 'node:crypto';
import { mkdir, open, realpath, rename, rm, stat } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { formatTaskLine, TaskFileError, writeTaskFile, type VisionQATask } from '@saccade/core';
import { sniffMediaType } from '@saccade/image';
import { InvalidArgumentError } from '@saccade/spec';
import type { AdapterContext, DatasetAdapter, TaskDraft } from '../dataset-adapter';
import { findDatasetAdapter, listDatasetAdapters } from '../dataset-adapters';
import { DatasetFormatError, describeLocation, type SourceLocation } from '../dataset-format-error';
import { ImageLocator } from './image-locator';
import { describeFolder, locateInput } from './locate-input';

/**
 * What convertDataset reads (a dataset by name or adapter, from its published layout), the task
 * file it writes, and whether it skips bad records or stops at the first.
 */
export interface ConvertDatasetOptions {
  /** The dataset's name (`ChartQA`, `clevr-math`, …) or an adapter. */
  dataset: string | DatasetAdapter;
  /**
   * The dataset file or folder, as published, or the folder the dataset downloads as (or any
   * folder on the way): the adapter's `layout` finds the input in it.
   */
  input: string;
  /** The Saccade task file to write (JSONL). Image paths in it are relative to its folder. */
  output: string;
  /** The images folder; default: the adapter's, from the published layout. */
  images?: string;
  split?: string;
  datasetName?: string;
  taskFamily?: string;
  /** Skip records that cannot be converted (each goes to `onInvalid`) instead of stopping at the first. */
  skipInvalid?: boolean;
  onInvalid?: (error: DatasetFormatError) => void;
}

/**
 * What convertDataset did: the files it read and wrote, and how many records it read, wrote,
 * skipped as invalid and left out on purpose (with the reasons); the counts add up.
 */
export interface ConvertSummary {
  dataset: string;
  /** The file (or folder) read: the one found in `input` when that was a dataset folder. */
  input: string;
  output: string;
  images: string;
  /** Source records read (questions, or problem files). */
  read: number;
  /** Tasks written (a LLaVA record or an AI2D file can give several). */
  written: number;
  /** Records that could not be converted, skipped under `skipInvalid`. */
  skipped: number;
  /** Records left out on purpose (another split), with the reasons counted. */
  leftOut: number;
  leftOutReasons: Record<string, number>;
}

/** The adapter for a name; an unknown name is an `InvalidArgumentError` listing the known ones. */
export function datasetAdapter(dataset: string | DatasetAdapter): DatasetAdapter {
  if (typeof dataset !== 'string') return dataset;
  const adapter = findDatasetAdapter(dataset);
  if (adapter === undefined) {
    throw new InvalidArgumentError({ argument: 'dataset', expected: `one of ${listDatasetAdapters().map((known) => known.name).join(', ')}`, value: dataset });
  }
  return adapter;
}

/** A task file path for an image: relative to the task file's folder, with `/`. */
const relativePath = (folder: string, path: string): string => relative(folder, path).split(sep).join('/');

/**
 * Converts one dataset from its published layout to a Saccade task file, streaming: records are
 * read, checked (fields, answer type, images on disk, unique ids) and written one at a time,
 * through a temporary file renamed at the end. By default the first bad record stops the run
 * with a `DatasetFormatError` naming the file, line or record, and field; with `skipInvalid` it
 * is counted and reported instead. Every record read is written, skipped or left out (another
 * split), and the summary counts each.
 */
export async function convertDataset(options: ConvertDatasetOptions): Promise<ConvertSummary> {
  const adapter = datasetAdapter(options.dataset);
  const output = resolve(options.output);
  const missingImages = () => new InvalidArgumentError({ argument: 'images', expected: `the images folder for ${adapter.name}: ${adapter.images}`, value: undefined });
  if (options.images === undefined && adapter.defaultImages(resolve(options.input), output) === undefined) throw missingImages();
  // A folder as downloaded becomes the file (or folder) the layout puts in it.
  const input = await locateInput(adapter, resolve(options.input), options.split);
  const chosen = options.images === undefined ? adapter.defaultImages(input, output) : resolve(options.images);
  if (chosen === undefined) throw missingImages();
  const images: string = chosen;
  const imageLocator = new ImageLocator(images);
  const context: AdapterContext = { input, images, split: options.split, datasetName: options.datasetName, taskFamily: options.taskFamily };
  const summary: ConvertSummary = { dataset: adapter.name, input, output, images, read: 0, written: 0, skipped: 0, leftOut: 0, leftOutReasons: {} };
  const folder = dirname(output);
  const ids = new Set<string>();
  // Links resolved once: an image must be inside this folder after resolving its own links too.
  let root: Promise<string> | undefined;
  const imagesRoot = (): Promise<string> => (root ??= realpath(images).catch(() => images));

  // The error that stops the run. The task stream then ends normally and the partial file is
  // removed: the writer is never left with a write in flight on a destroyed stream.
  let stop: DatasetFormatError | undefined;
  const reject = (error: DatasetFormatError): void => {
    if (options.skipInvalid !== true) {
      stop = error;
      return;
    }
    summary.skipped++;
    options.onInvalid?.(error);
  };

  /** The record's tasks, checked; the first problem throws. */
  async function checked(location: SourceLocation, drafts: TaskDraft[]): Promise<VisionQATask[]> {
    const tasks: VisionQATask[] = [];
    const seen = new Set<string>();
    for (const draft of drafts) {
      const found: string[] = [];
      for (const image of draft.images) {
        const path = await imageLocator.locate(image.path);
        if (path === undefined) throw new DatasetFormatError({ location, field: image.field, expected: 'an image file that exists', received: `${JSON.stringify(relativePath(images, image.path))} (not found at ${image.path})` });
        const problem = await imageProblem(path, await imagesRoot());
        if (problem !== undefined) throw new DatasetFormatError({ location, field: image.field, expected: problem.expected, received: `${JSON.stringify(relativePath(images, image.path))} (${problem.received})` });
        found.push(path);
      }
      if (ids.has(draft.id) || seen.has(draft.id)) throw new DatasetFormatError({ location, field: 'id', expected: 'a task id not used before in this file', received: JSON.stringify(draft.id) });
      seen.add(draft.id);
      const task = { ...draft, images: found.map((path) => relativePath(folder, path)) } as VisionQATask;
      try {
        formatTaskLine(task, { file: describeLocation(location) });
      } catch (error) {
        if (!TaskFileError.isInstance(error)) throw error;
        throw new DatasetFormatError({ location, field: `(task) ${error.field}`, expected: error.expected, received: error.received, cause: error });
      }
      tasks.push(task);
    }
    for (const id of seen) ids.add(id);
    return tasks;
  }

  async function* tasks(): AsyncGenerator<VisionQATask> {
    for await (const item of adapter.read(context)) {
      if (stop !== undefined) return;
      summary.read++;
      if ('filtered' in item) {
        summary.leftOut++;
        summary.leftOutReasons[item.filtered] = (summary.leftOutReasons[item.filtered] ?? 0) + 1;
        continue;
      }
      if ('error' in item) {
        reject(item.error);
        continue;
      }
      let converted: VisionQATask[];
      try {
        converted = await checked(item.location, item.tasks);
      } catch (error) {
        if (!DatasetFormatError.isInstance(error)) throw error;
        reject(error);
        continue;
      }
      for (const task of converted) {
        summary.written++;
        yield task;
      }
    }
  }

  await mkdir(folder, { recursive: true });
  const partial = `${output}.${process.pid}.${randomBytes(4).toString('hex')}.partial`;
  try {
    await writeTaskFile(partial, tasks());
    if (stop !== undefined) throw stop;
    // Nothing read from a folder: the data is elsewhere (a level down, another name); never a success.
    if (summary.read === 0 && (await stat(input)).isDirectory()) {
      throw new DatasetFormatError({ location: { file: input }, field: '(folder)', expected: `${adapter.name}'s ${adapter.input}`, received: `${await describeFolder(input)}, which gave no records` });
    }
    // No task, no file: an empty task file would only fail later, and an existing output is kept.
    if (summary.written === 0) await rm(partial, { force: true });
    else await rename(partial, output);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  return summary;
}

/**
 * Why the located file cannot be a task's image, or undefined: after resolving links it must lie
 * inside the images folder (a record naming `../../etc/passwd`, `/etc/hostname` or a link out of
 * the folder is refused), and its first bytes must be PNG, JPEG or WebP.
 */
async function imageProblem(path: string, root: string): Promise<{ expected: string; received: string } | undefined> {
  let real: string;
  try {
    real = await realpath(path);
  } catch {
    return { expected: 'an image file that exists', received: `not found at ${path}` };
  }
  const inside = relative(root, real);
  if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
    return { expected: `an image inside the images folder ${root}`, received: `resolves to ${real}, outside it` };
  }
  const head = new Uint8Array(16);
  let length = 0;
  try {
    const file = await open(real, 'r');
    try {
      length = (await file.read(head, 0, head.length, 0)).bytesRead;
    } finally {
      await file.close();
    }
  } catch (error) {
    return { expected: 'a readable image file', received: `${real} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
  }
  if (sniffMediaType(head.subarray(0, length)) === undefined) return { expected: 'a PNG, JPEG or WebP image', received: `${real} is not one: its first bytes are no image signature` };
  return undefined;
}
