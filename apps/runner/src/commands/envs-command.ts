import { assertEnv, getEnvSpec, listEnvs, makeEnv } from '@saccade/core';
import { ConformanceError, EnvNotFoundError } from '@saccade/spec';
import { Command } from 'commander';
import { EXIT_FAILURE, EXIT_SUCCESS, EXIT_USAGE } from '../exit-codes';
import type { Output } from '../output';

/** `saccade envs list|check`: what is registered, and whether an env keeps the Env contract. */
export function envsCommand(output: Output, setExitCode: (code: number) => void): Command {
  const envs = new Command('envs').description('list registered envs and check them');

  envs
    .command('list')
    .description('list the registered env ids')
    .option('--json', 'print JSON')
    .action((options: { json?: boolean }) => {
      const rows = listEnvs().map((id) => {
        const spec = getEnvSpec(id);
        return { id, maxTurns: spec?.maxTurns ?? null, description: spec?.description ?? '' };
      });
      if (options.json) output.log(JSON.stringify(rows));
      else for (const row of rows) output.log(`${row.id.padEnd(28)} ${row.description}`);
      setExitCode(EXIT_SUCCESS);
    });

  envs
    .command('check')
    .description("run the conformance checks (checkEnv) on a registered env")
    .argument('<id>', 'env id, e.g. saccade/FrozenLake-v1')
    .option('--seed <n>', 'seed for the checks', (value) => Number.parseInt(value, 10), 0)
    .action(async (id: string, options: { seed: number }) => {
      try {
        // Made once up front so that an unknown id is reported as such, not as a failed check.
        await makeEnv(id).close();
        await assertEnv(() => makeEnv(id), { seed: options.seed });
        output.log(`${id}: passes checkEnv`);
        setExitCode(EXIT_SUCCESS);
      } catch (error) {
        if (EnvNotFoundError.isInstance(error)) {
          output.error(error.message);
          setExitCode(EXIT_USAGE);
        } else if (ConformanceError.isInstance(error)) {
          output.error(error.message);
          setExitCode(EXIT_FAILURE);
        } else throw error;
      }
    });

  return envs;
}
