import { Command, CommanderError } from 'commander';
import { registerBuiltinEnvs } from './builtin-envs';
import { benchCommand } from './commands/bench-command';
import { dataCommand } from './commands/data-command';
import { envsCommand } from './commands/envs-command';
import { evalCommand } from './commands/eval-command';
import { plotCommand } from './commands/plot-command';
import { serveCommand } from './commands/serve-command';
import { toolsCommand } from './commands/tools-command';
import { trainCommand } from './commands/train-command';
import { watchCommand } from './commands/watch';
import { EXIT_SUCCESS, EXIT_USAGE } from './exit-codes';
import { consoleOutput, type Output } from './output';

export interface RunCliResult {
  exitCode: number;
}

/** Builds the `saccade` command tree. */
export function createProgram(output: Output, setExitCode: (code: number) => void): Command {
  registerBuiltinEnvs();
  const program = new Command('saccade')
    .description('Saccade: train and evaluate vision-language agents that think with images and use tools')
    .exitOverride()
    .configureOutput({ writeOut: (text) => output.log(text.trimEnd()), writeErr: (text) => output.error(text.trimEnd()) });
  program.addCommand(envsCommand(output, setExitCode));
  program.addCommand(trainCommand(output, setExitCode));
  program.addCommand(evalCommand(output, setExitCode));
  program.addCommand(toolsCommand(output, setExitCode));
  program.addCommand(serveCommand(output, setExitCode));
  program.addCommand(dataCommand(output, setExitCode));
  program.addCommand(benchCommand(output, setExitCode));
  program.addCommand(plotCommand(output, setExitCode));
  program.addCommand(watchCommand(output, setExitCode));
  return program;
}

/** Runs the CLI on `argv` (without the node and script entries) and returns the exit code. */
export async function runCli(argv: string[], output: Output = consoleOutput): Promise<RunCliResult> {
  let exitCode = EXIT_SUCCESS;
  const program = createProgram(output, (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end through here with exit code 0.
      return { exitCode: error.exitCode === 0 ? EXIT_SUCCESS : EXIT_USAGE };
    }
    throw error;
  }
  return { exitCode };
}
