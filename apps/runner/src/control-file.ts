import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';

export type ControlCommand = 'pause' | 'resume' | 'checkpoint' | 'stop';

/**
 * Reads `<run folder>/control.jsonl`, where the TUI (in this process or `saccade watch` in
 * another) appends `{"command": "pause" | "resume" | "checkpoint" | "stop"}` lines. A trainer calls
 * `betweenSteps` between steps: it returns at once unless paused, asks for a checkpoint when one
 * was requested, and stops the run through `stop`. Lines written before the run started (a resumed
 * run's folder) are skipped.
 */
export function createControlReader(runFolder: string, stop: () => void, pollMilliseconds = 250): {
  betweenSteps: () => Promise<{ checkpoint?: boolean }>;
} {
  const file = join(runFolder, 'control.jsonl');
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
    const text = pending + buffer.toString('utf8');
    const lines = text.split('\n');
    pending = lines.pop() ?? ''; // a line still being written
    return lines.flatMap((line) => {
      try {
        const command = (JSON.parse(line) as { command?: unknown }).command;
        return command === 'pause' || command === 'resume' || command === 'checkpoint' || command === 'stop' ? [command] : [];
      } catch {
        return [];
      }
    });
  };

  return {
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
