import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { taskErrorFromIssues } from './read-task-file';
import { taskFileLineSchema, type VisionQATask } from './vision-qa-task';

/** One task as a task-file line (no newline); validated, `location` left out. Image paths are written as given. */
export function formatTaskLine(task: VisionQATask | Omit<VisionQATask, 'location'>, { file = 'tasks', line = 1 }: { file?: string; line?: number } = {}): string {
  const { location: _location, ...fields } = task as VisionQATask;
  const parsed = taskFileLineSchema.safeParse(fields);
  if (!parsed.success) throw taskErrorFromIssues(parsed.error.issues, fields, file, line);
  return JSON.stringify(fields);
}

/**
 * Writes tasks to a JSONL task file as they come (any iterable or async iterable), through a
 * temporary file renamed at the end, so a crash never leaves half a file. Returns the count.
 * Image paths are written as given: make them relative to the file's folder.
 */
export async function writeTaskFile(file: string, tasks: Iterable<VisionQATask> | AsyncIterable<VisionQATask>): Promise<number> {
  const temporary = `${file}.${process.pid}.tmp`;
  const stream = createWriteStream(temporary, { encoding: 'utf8' });
  // A file that cannot be opened or written (read-only folder, full disk) rejects this call: never
  // an unhandled 'error' event that ends the process.
  let failure: Error | undefined;
  stream.on('error', (error) => (failure ??= error));
  let count = 0;
  try {
    await once(stream, 'open');
    for await (const task of tasks) {
      if (failure !== undefined) throw failure;
      const text = `${formatTaskLine(task, { file, line: count + 1 })}\n`;
      count++;
      if (!stream.write(text)) await once(stream, 'drain');
    }
    if (failure !== undefined) throw failure;
    stream.end();
    await once(stream, 'finish');
    await rename(temporary, file);
    return count;
  } catch (error) {
    stream.destroy();
    await rm(temporary, { force: true });
    throw error;
  }
}
