import { Command } from 'commander';
import { EXIT_SUCCESS, EXIT_USAGE } from '../exit-codes';
import type { Output } from '../output';
import { writeRunPlots } from '../plots/write-run-plots';
import { RunFolder } from '../run-folder';

/** `saccade plot <run folder>`: (re)draws a run's charts from its metrics.jsonl. */
export function plotCommand(output: Output, setExitCode: (code: number) => void): Command {
  return new Command('plot')
    .description("draw a run's charts (loss, held-out success) as SVG and PNG into <run folder>/plots")
    .argument('<run-folder>', 'a folder written by saccade train')
    .action(async (path: string) => {
      let folder: RunFolder;
      try {
        folder = RunFolder.open(path);
      } catch (error) {
        output.error((error as Error).message);
        setExitCode(EXIT_USAGE);
        return;
      }
      for (const file of await writeRunPlots(folder.path, folder.readMetrics())) output.log(file);
      setExitCode(EXIT_SUCCESS);
    });
}
