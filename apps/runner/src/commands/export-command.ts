import { basename, join, resolve } from 'node:path';
import { exportTensorBoard, RunFolder } from '@saccade/runs';
import { Command } from 'commander';
import { EXIT_SUCCESS, EXIT_USAGE } from '../exit-codes';
import type { Output } from '../output';

/** `saccade export tensorboard <run>`: a run folder's metrics as TensorBoard event files. */
export function exportCommand(output: Output, setExitCode: (code: number) => void): Command {
  const command = new Command('export').description("write a run folder's curves in other tools' formats");
  command
    .command('tensorboard')
    .description('metrics.jsonl (training updates, rollouts, held-out evaluations, eval results) as a TensorBoard event file, step for step')
    .argument('<run>', 'a run folder (saccade train or saccade eval)')
    .option('--out <folder>', 'the TensorBoard log folder: the run goes to <folder>/<run name>/ (default: tensorboard)', 'tensorboard')
    .action((run: string, flags: { out: string }) => {
      if (!RunFolder.isRunFolder(run)) {
        output.error(`${run} is not a run folder: it has no events.jsonl (expected a folder written by saccade train or saccade eval).`);
        setExitCode(EXIT_USAGE);
        return;
      }
      const folder = join(flags.out, basename(resolve(run)));
      const written = exportTensorBoard(run, folder);
      output.log(`${written.scalars} values from ${written.rows} metric rows → ${written.path}`);
      output.log(`view: tensorboard --logdir ${flags.out}`);
      setExitCode(EXIT_SUCCESS);
    });
  return command;
}
