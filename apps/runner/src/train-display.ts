import type { RunEvent } from '@saccade/spec';
import { EventEmitter } from 'node:events';
import type { Output } from './output';
import { createProgressPrinter } from './progress-printer';
import type { PhasePlan } from '@saccade/tui/eta';

export interface TrainDisplay {
  /** True when the terminal UI shows the run (nothing else should write to stdout meanwhile). */
  readonly interactive: boolean;
  emit(event: RunEvent): void;
  /** Waits for the UI to close after `run-end` (closing it if it lingers); a no-op for plain output. */
  close(): Promise<void>;
}

export interface TrainDisplaySettings {
  output: Output;
  runFolder: string;
  runName: string;
  backend?: string;
  totalSteps: number;
  /** The phases ahead with their time limits, and the step the first started after (the ETA's plan). */
  phases?: PhasePlan[];
  firstPhaseStart?: number;
  /** `--plain`: progress lines even on a terminal. */
  plain: boolean;
  /** Stops the run (the UI's quit and Ctrl-C). */
  stop: () => void;
}

/**
 * The terminal UI when stdin and stdout are a terminal (and not `--plain` or CI), the plain
 * progress printer otherwise. The UI is imported only when used, so headless runs never load
 * React and Ink.
 */
export async function createTrainDisplay(settings: TrainDisplaySettings): Promise<TrainDisplay> {
  const terminal = process.stdout.isTTY === true && process.stdin.isTTY === true;
  if (!terminal || settings.plain || inCi()) {
    const print = createProgressPrinter(settings.output, {
      totalSteps: settings.totalSteps,
      ...(settings.phases ? { phases: settings.phases } : {}),
      ...(settings.firstPhaseStart ? { firstPhaseStart: settings.firstPhaseStart } : {}),
      interactive: terminal,
      writeStatus: (line) => process.stdout.write(`\r\x1b[2K${line}`),
    });
    return { interactive: false, emit: print, close: async () => {} };
  }
  const { createFileControl, renderTrainingTui } = await import('@saccade/tui');
  const events = new EventEmitter();
  // Pause, resume and checkpoint go through the run folder's control.jsonl, which the trainer
  // reads; stopping aborts this process's run directly.
  const fileControl = createFileControl(settings.runFolder);
  const tui = renderTrainingTui({
    events,
    control: { ...fileControl, stop: settings.stop },
    runFolder: settings.runFolder,
    runInfo: {
      name: settings.runName,
      totalSteps: settings.totalSteps,
      ...(settings.phases ? { phases: settings.phases } : {}),
      ...(settings.firstPhaseStart ? { firstPhaseStart: settings.firstPhaseStart } : {}),
      ...(settings.backend ? { backend: settings.backend } : {}),
    },
  });
  const exited = tui.waitUntilExit();
  return {
    interactive: true,
    emit: (event) => events.emit('event', event),
    close: async () => {
      // The UI closes itself once it has drawn run-end; give it a moment, then close it anyway.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, 2000)))]);
      clearTimeout(timer);
      tui.unmount();
      await exited;
    },
  };
}

/** CI=true (or any value but 'false' / '0'), as Ink and most tools read it. */
export function inCi(): boolean {
  const value = process.env['CI'];
  return value !== undefined && value !== 'false' && value !== '0';
}
