import { BackendFailureError } from './backend-failure';
import { Command, CommanderError } from 'commander';
import { registerBuiltinEnvs } from './builtin-envs';
import { benchCommand } from './commands/bench-command';
import { dataCommand } from './commands/data-command';
import { envsCommand } from './commands/envs-command';
import { evalCommand } from './commands/eval-command';
import { exportCommand } from './commands/export-command';
import { plotCommand } from './commands/plot-command';
import { serveCommand } from './commands/serve-command';
import { toolsCommand } from './commands/tools-command';
import { trainCommand } from './commands/train-command';
import { viewCommand } from './commands/view-command';
import { watchCommand } from './commands/watch';
import { EXIT_FAILURE, EXIT_SUCCESS, EXIT_USAGE } from './exit-codes';
import { consoleOutput, type Output } from './output';
import { isFileSystemError, UsageError } from './usage-error';
import { acceptJudgeSettings } from './judge/env-judges';
import { loadPlugins, PLUGINS_VARIABLE, requestedPlugins } from './plugins';

/** How a `runCli` call ended: the exit code the process should exit with. */
export interface RunCliResult {
  exitCode: number;
}

/** Builds the `saccade` command tree (envs must be registered first: `registerBuiltinEnvs`, as `runCli` does). */
export function createProgram(output: Output, setExitCode: (code: number) => void): Command {
  const program = new Command('saccade')
    .description('Saccade: train and evaluate vision-language agents that think with images and use tools')
    .exitOverride()
    .configureOutput({ writeOut: (text) => output.log(text.trimEnd()), writeErr: (text) => output.error(text.trimEnd()) })
    .option('--plugin <package or folder>', `a package of envs or tools to load (its package.json's "saccade" field names them), installed here or beside saccade, or its folder; repeatable; also ${PLUGINS_VARIABLE}=a,b`, (value: string, previous: string[] = []) => [...previous, value]);
  // Before any command runs: its envs and tools are there for the command's own checks.
  program.hook('preAction', async (_program, command) => void (await loadPlugins(requestedPlugins(command))));
  program.addCommand(envsCommand(output, setExitCode));
  program.addCommand(trainCommand(output, setExitCode));
  program.addCommand(evalCommand(output, setExitCode));
  program.addCommand(toolsCommand(output, setExitCode));
  program.addCommand(serveCommand(output, setExitCode));
  program.addCommand(dataCommand(output, setExitCode));
  program.addCommand(benchCommand(output, setExitCode));
  program.addCommand(plotCommand(output, setExitCode));
  program.addCommand(watchCommand(output, setExitCode));
  program.addCommand(viewCommand(output, setExitCode));
  program.addCommand(exportCommand(output, setExitCode));
  // Envs registered so far (plug-ins' too) take `judge` settings in their options.
  program.hook('preAction', () => acceptJudgeSettings());
  for (const command of program.commands) configureSubcommands(command, output);
  return program;
}

/**
 * Commands built on their own and added with addCommand do not inherit the program's settings:
 * without this, an unknown option of `data convert` ends the process with exit 1 from inside
 * commander. Also reports an unknown option before a missing required one (`data convert chartqa
 * --bogus` names --bogus, not --input), as the typo is the likelier cause.
 */
function configureSubcommands(command: Command, output: Output): void {
  command.exitOverride().configureOutput({ writeOut: (text) => output.log(text.trimEnd()), writeErr: (text) => output.error(text.trimEnd()) });
  const deferred = command as unknown as { missingMandatoryOptionValue(option: unknown): void };
  const report = deferred.missingMandatoryOptionValue.bind(command);
  const missing: unknown[] = [];
  // commander checks required options first, then unknown ones, then runs preAction hooks.
  deferred.missingMandatoryOptionValue = (option) => void missing.push(option);
  command.hook('preAction', () => {
    const first = missing.shift();
    missing.length = 0;
    if (first !== undefined) report(first);
  });
  for (const child of command.commands) configureSubcommands(child, output);
}

// The env packages are imported and registered once per process (tests run the CLI many times).
let registered: Promise<unknown> | undefined;
const registerEnvsOnce = () => (registered ??= registerBuiltinEnvs());

/** Runs the CLI on `argv` (without the node and script entries) and returns the exit code. */
export async function runCli(argv: string[], output: Output = consoleOutput): Promise<RunCliResult> {
  let exitCode = EXIT_SUCCESS;
  try {
    await registerEnvsOnce();
  } catch (error) {
    output.error(`saccade: the env packages could not be registered: ${(error as Error).message}`);
    return { exitCode: EXIT_FAILURE };
  }
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
    if (UsageError.isInstance(error)) {
      output.error(error.message);
      return { exitCode: EXIT_USAGE };
    }
    // A disk that fills or a file that cannot be written is no bug in Saccade: one line, no stack trace.
    if (isFileSystemError(error)) {
      output.error(`saccade: ${error.message}`);
      return { exitCode: EXIT_FAILURE };
    }
    // The backend running out of memory: what to change is the message; its stack says nothing more.
    if (error instanceof BackendFailureError) {
      output.error(`saccade: ${error.message}`);
      return { exitCode: EXIT_FAILURE };
    }
    throw error;
  }
  return { exitCode };
}
