import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * What the keys that act on a run call. In-process the trainer supplies it; for a run folder
 * written by another process, `createFileControl` asks through the folder's control file.
 */
export interface RunControl {
  pause(): void | Promise<void>;
  resume(): void | Promise<void>;
  saveCheckpoint(): void | Promise<void>;
  stop(): void | Promise<void>;
}

export type ControlCommand = 'pause' | 'resume' | 'checkpoint' | 'stop';

/** The control file's name in a run folder: one `{"command", "time"}` JSON object a line. */
export const CONTROL_FILE = 'control.jsonl';

/**
 * A control that appends commands to `<run folder>/control.jsonl`. The trainer that writes the
 * folder reads the lines it has not seen yet and acts on them; appending (never rewriting) means
 * the writer and the reader need no lock, and the file doubles as a record of who asked what.
 */
export function createFileControl(folder: string): RunControl {
  const send = (command: ControlCommand): Promise<void> =>
    appendFile(join(folder, CONTROL_FILE), `${JSON.stringify({ command, time: new Date().toISOString() })}\n`);
  return {
    pause: () => send('pause'),
    resume: () => send('resume'),
    saveCheckpoint: () => send('checkpoint'),
    stop: () => send('stop'),
  };
}
