import { appendControlCommand } from '@saccade/runs';

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

/**
 * A control that appends commands to the run folder's control file (`@saccade/runs`); the trainer
 * that writes the folder reads the lines it has not seen yet and acts on them.
 */
export function createFileControl(folder: string): RunControl {
  return {
    pause: () => appendControlCommand(folder, 'pause'),
    resume: () => appendControlCommand(folder, 'resume'),
    saveCheckpoint: () => appendControlCommand(folder, 'checkpoint'),
    stop: () => appendControlCommand(folder, 'stop'),
  };
}
