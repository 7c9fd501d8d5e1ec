import { Command } from 'commander';
import { EXIT_SUCCESS, EXIT_USAGE } from '../exit-codes';
import type { Output } from '../output';
import { RunFolder } from '../run-folder';

/** `saccade watch <run folder>`: the terminal UI on a run another process writes (or wrote). */
export function watchCommand(output: Output, setExitCode: (code: number) => void): Command {
  return new Command('watch')
    .description('watch a run folder live in the terminal UI (local, or synced from another machine)')
    .argument('<run folder>', 'a folder with events.jsonl, as `saccade train` writes')
    .action(async (path: string) => {
      try {
        RunFolder.open(path);
      } catch (error) {
        output.error((error as Error).message);
        setExitCode(EXIT_USAGE);
        return;
      }
      if (process.stdout.isTTY !== true || process.stdin.isTTY !== true) {
        output.error(`saccade watch needs a terminal (stdin and stdout a TTY); to follow ${path} without one, read its events.jsonl (e.g. tail -f).`);
        setExitCode(EXIT_USAGE);
        return;
      }
      // Loaded only here: the other commands never need React and Ink.
      const { watchRunFolder } = await import('@saccade/tui');
      const { stopRequested } = await watchRunFolder(path).waitUntilExit();
      output.log(stopRequested ? `asked the run in ${path} to stop (control.jsonl)` : `left ${path}; the run goes on`);
      setExitCode(EXIT_SUCCESS);
    });
}
