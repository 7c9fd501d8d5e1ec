import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RUN_FILES } from './run-files';

/** What a UI can ask of a running trainer through the run folder's control file. */
export type ControlCommand = 'pause' | 'resume' | 'checkpoint' | 'stop';

/** Every control command, in the order a UI lists them. */
export const CONTROL_COMMANDS: readonly ControlCommand[] = ['pause', 'resume', 'checkpoint', 'stop'];

/** Whether `value` is one of the control commands. */
export function isControlCommand(value: unknown): value is ControlCommand {
  return typeof value === 'string' && (CONTROL_COMMANDS as readonly string[]).includes(value);
}

/**
 * Appends `{"command", "time"}` to `<run folder>/control.jsonl`. Appending (never rewriting) means
 * the writer and the reader need no lock, and the file doubles as a record of who asked what.
 */
export async function appendControlCommand(runFolder: string, command: ControlCommand, time = new Date()): Promise<void> {
  if (!isControlCommand(command)) throw new Error(`Expected a control command (${CONTROL_COMMANDS.join(', ')}), got ${JSON.stringify(command)}.`);
  await appendFile(join(runFolder, RUN_FILES.control), `${JSON.stringify({ command, time: time.toISOString() })}\n`);
}

/** What `createControlReader` gives a trainer. */
export interface ControlReader {
  /**
   * Called between steps: returns at once unless paused (then waits for `resume` or `stop`), says
   * whether a checkpoint was asked for, and calls `stop` on a `stop` command.
   */
  betweenSteps(): Promise<{ checkpoint?: boolean }>;
  /** The commands appended since the last read, in order; a line still being written waits. */
  readCommands(): ControlCommand[];
}

/**
 * Reads `<run folder>/control.jsonl`, where the TUI (in this process or `saccade watch` in another)
 * appends commands. Lines written before the reader was made (a resumed run's folder) are skipped;
 * lines that are not a command are ignored.
 */
export function createControlReader(runFolder: string, stop: () => void, pollMilliseconds = 250): ControlReader {
  const file = join(runFolder, RUN_FILES.control);
  let offset = existsSync(file) ? statSync(file).size : 0;
  let pending = '';

  const readCommands = (): ControlCommand[] => {
    if (!existsSync(file)) return [];
    const size = statSync(file).size;
    if (size <= offset) return [];
    const buffer = Buffer.alloc(size - offset);
    const handle = openSync(file, 'r');
    try {
      readSync(handle, buffer, 0, buffer.length, offset);
    } finally {
      closeSync(handle);
    }
    offset = size;
    const lines = (pending + buffer.toString('utf8')).split('\n');
    pending = lines.pop() ?? ''; // a line still being written
    return lines.flatMap((line) => {
      try {
        const command = (JSON.parse(line) as { command?: unknown }).command;
        return isControlCommand(command) ? [command] : [];
      } catch {
        return [];
      }
    });
  };

  return {
    readCommands,
    async betweenSteps() {
      let checkpoint = false;
      let paused = false;
      for (;;) {
        for (const command of readCommands()) {
          if (command === 'pause') paused = true;
          else if (command === 'resume') paused = false;
          else if (command === 'checkpoint') checkpoint = true;
          else {
            stop();
            return { checkpoint };
          }
        }
        if (!paused) return { checkpoint };
        await new Promise((resolve) => setTimeout(resolve, pollMilliseconds));
      }
    },
  };
}
