import { access } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { z } from 'zod';
import { readJsonLines, type JsonLine } from '../files/read-json-lines';
import { TaskFileError } from './task-file-error';
import { taskFileLineSchema, type VisionQATask } from './vision-qa-task';

/** A short description of a value for messages. */
export function describeReceived(value: unknown): string {
  if (value === undefined) return 'nothing (the field is missing)';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

const fieldName = (path: readonly PropertyKey[]) =>
  path.reduce<string>((name, key) => (typeof key === 'number' ? `${name}[${key}]` : name.length === 0 ? String(key) : `${name}.${String(key)}`), '');

/**
 * The first problem zod found in `raw`: the field's path (`rootField` when it is `raw` itself),
 * what was expected and a short description of what came. File readers put these in their errors.
 */
export function describeZodIssue(
  issues: readonly z.core.$ZodIssue[],
  raw: unknown,
  rootField: string,
): { field: string; expected: string; received: string } {
  const issue = issues[0]!;
  // A union's inner issues name the exact branch that failed; its own message is the clearer one.
  return { field: fieldName(issue.path) || rootField, expected: issue.message, received: describeReceived(valueAt(raw, issue.path)) };
}

/** The first problem zod found, as a TaskFileError naming the field. */
export function taskErrorFromIssues(issues: readonly z.core.$ZodIssue[], raw: unknown, file: string, line: number): TaskFileError {
  return new TaskFileError({ file, line, ...describeZodIssue(issues, raw, '(line)') });
}

/** Where a task line comes from, for {@link parseTaskLine}'s messages and relative image paths. */
export interface ParseTaskLineOptions {
  /** The file, for messages and to resolve relative image paths. */
  file: string;
  /** 1-based line number, for messages. */
  line: number;
  /** Resolve image paths against the file's folder (default true). */
  resolveImages?: boolean;
}

/** Parses and validates one line of a task file; throws `TaskFileError` naming the field. */
export function parseTaskLine(text: string, options: ParseTaskLineOptions): VisionQATask {
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw notJson(error, options);
  }
  return taskFromJson(raw, options);
}

/** The error of a task file that cannot be opened or read (the task file source's scan says it too). */
export function unreadableTaskFile(file: string, error: unknown): TaskFileError {
  return new TaskFileError({ file, field: '(file)', expected: 'a readable JSONL task file', received: (error as Error).message, cause: error });
}

function notJson(error: unknown, { file, line }: ParseTaskLineOptions): TaskFileError {
  return new TaskFileError({ file, line, field: '(line)', expected: 'a JSON object', received: `text that is not JSON (${(error as Error).message})`, cause: error });
}

/** Validates a line's parsed JSON as a task. */
function taskFromJson(raw: unknown, { file, line, resolveImages = true }: ParseTaskLineOptions): VisionQATask {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new TaskFileError({ file, line, field: '(line)', expected: 'a JSON object', received: describeReceived(raw) });
  }
  const parsed = taskFileLineSchema.safeParse(raw);
  if (!parsed.success) throw taskErrorFromIssues(parsed.error.issues, raw, file, line);
  const task = parsed.data as VisionQATask;
  const folder = dirname(file);
  if (resolveImages) task.images = task.images.map((image) => (typeof image === 'string' && !isAbsolute(image) ? resolve(folder, image) : image));
  task.location = { file, line };
  return task;
}

/** Options of {@link readTaskFile}: skip invalid lines (reported one by one) instead of throwing. */
export interface ReadTaskFileOptions {
  /** Skip invalid lines instead of throwing; each one goes to `onInvalid`. Default false. */
  skipInvalid?: boolean;
  /** Called with each invalid line's error when `skipInvalid` is on. */
  onInvalid?: (error: TaskFileError) => void;
  /** Check that every image file exists (one `access` call per image). Default false. */
  checkImages?: boolean;
  /** Resolve image paths against the file's folder (default true). */
  resolveImages?: boolean;
}

/**
 * Streams the tasks of a JSONL task file, one line at a time (never the whole file in memory).
 * Blank lines are skipped. A broken line throws a `TaskFileError` naming the file, the line, the
 * field and what was expected, unless `skipInvalid` is on.
 *
 * @example
 * for await (const task of readTaskFile('data/chartqa/test.jsonl')) console.log(task.id);
 */
export async function* readTaskFile(file: string, options: ReadTaskFileOptions = {}): AsyncGenerator<VisionQATask> {
  const { skipInvalid = false, onInvalid, checkImages = false, resolveImages = true } = options;
  for await (const entry of readJsonLines(file, { onOpenError: (error) => unreadableTaskFile(file, error) })) {
    try {
      const task = taskFromLine(entry, { file, line: entry.lineNumber, resolveImages });
      if (checkImages) await checkImageFiles(task, file, entry.lineNumber);
      yield task;
    } catch (error) {
      if (!skipInvalid || !TaskFileError.isInstance(error)) throw error;
      onInvalid?.(error);
    }
  }
}

function taskFromLine(entry: JsonLine, options: ParseTaskLineOptions): VisionQATask {
  if (entry.error !== undefined) throw notJson(entry.error, options);
  return taskFromJson(entry.value, options);
}

async function checkImageFiles(task: VisionQATask, file: string, line: number): Promise<void> {
  for (const [index, image] of task.images.entries()) {
    if (typeof image !== 'string') continue;
    try {
      await access(image);
    } catch {
      throw new TaskFileError({ file, line, field: `images[${index}]`, expected: 'an image file that exists', received: `${JSON.stringify(image)} (not found)` });
    }
  }
}
