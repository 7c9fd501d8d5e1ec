import { VisionLanguageModel } from '@saccade/models';
import type { RunEvent } from '@saccade/spec';
import { backendInfo, initTensor } from '@saccade/tensor';
import { trainSft } from '@saccade/trainers';
import { Command } from 'commander';
import { ConfigError } from '../config-error';
import { EXIT_CANCELLED, EXIT_SUCCESS, EXIT_USAGE } from '../exit-codes';
import { loadTrainConfig } from '../load-train-config';
import type { Output } from '../output';
import { createProgressPrinter } from '../progress-printer';
import { writeRunPlots } from '../plots/write-run-plots';
import { RunFolder } from '../run-folder';

interface TrainFlags {
  config?: string;
  name?: string;
  out?: string;
  preset?: string;
  steps?: number;
  batchSize?: number;
  learningRate?: number;
  evalEvery?: number;
  evalEpisodes?: number;
  trainSeeds?: number;
  timeLimit?: number;
  targetSuccess?: number;
  seed?: number;
}

const integer = (value: string): number => Number(value);

/** `saccade train`: with no arguments, the built-in default run. */
export function trainCommand(output: Output, setExitCode: (code: number) => void): Command {
  return new Command('train')
    .description('train the built-in model (no arguments: the default run on FrozenLake from images)')
    .option('-c, --config <file>', 'YAML config file (flags override it)')
    .option('--name <name>', 'run name (default: train-<time>)')
    .option('--out <folder>', 'folder that holds run folders (default: runs)')
    .option('--preset <preset>', 'model preset: tiny | small')
    .option('--steps <n>', 'SFT steps', integer)
    .option('--batch-size <n>', 'examples per step', integer)
    .option('--learning-rate <x>', 'peak learning rate', Number)
    .option('--eval-every <n>', 'steps between held-out evaluations', integer)
    .option('--eval-episodes <n>', 'held-out episodes per evaluation', integer)
    .option('--train-seeds <n>', 'training seeds the solver demonstrations come from', integer)
    .option('--time-limit <seconds>', 'stop training after this many seconds', Number)
    .option('--target-success <fraction>', 'stop once held-out success reaches this (0–1)', Number)
    .option('--seed <n>', 'seed of the data order', integer)
    .action(async (flags: TrainFlags) => {
      let config;
      try {
        config = await loadTrainConfig(flags.config, {
          name: flags.name,
          outputFolder: flags.out,
          seed: flags.seed,
          model: flags.preset === undefined ? undefined : { preset: flags.preset },
          sft: {
            steps: flags.steps,
            batchSize: flags.batchSize,
            learningRate: flags.learningRate,
            evalEvery: flags.evalEvery,
            timeLimitSeconds: flags.timeLimit,
            targetSuccess: flags.targetSuccess,
            evalSeeds: flags.evalEpisodes === undefined ? undefined : { start: 0, count: flags.evalEpisodes },
            trainSeeds: flags.trainSeeds === undefined ? undefined : { start: 10_000, count: flags.trainSeeds },
          },
        });
      } catch (error) {
        if (!ConfigError.isInstance(error)) throw error;
        output.error(error.message);
        setExitCode(EXIT_USAGE);
        return;
      }

      await initTensor();
      const backend = backendInfo();
      const name = config.name ?? `train-${new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)}`;
      const folder = RunFolder.create(config.outputFolder, name);
      folder.writeConfig(config);
      const model = VisionLanguageModel.create({ preset: config.model.preset, seed: config.model.seed });
      output.log(`run ${folder.path}: ${config.env.id}, ${config.model.preset} model (${model.parameterCount.toLocaleString('en-US')} parameters), backend ${backend?.name ?? '?'}`);

      const interactive = process.stdout.isTTY === true;
      const print = createProgressPrinter(output, {
        totalSteps: config.sft.steps,
        interactive,
        writeStatus: (line) => process.stdout.write(`\r\x1b[2K${line}`),
      });
      const controller = new AbortController();
      const stop = (): void => {
        output.log('\nstopping: finishing the current step (Ctrl-C again to quit at once)');
        controller.abort();
        process.once('SIGINT', () => process.exit(130));
      };
      process.once('SIGINT', stop);
      const emit = (event: RunEvent): void => {
        folder.appendEvent(event);
        print(event);
      };
      emit({ type: 'run-start', time: new Date().toISOString(), runName: name, config });
      try {
        const result = await trainSft(
          model,
          {
            envId: config.env.id,
            envOptions: config.env.options,
            view: config.policyView,
            maxTurns: config.env.maxTurns,
            ...config.sft,
            seed: config.seed,
            checkpointFolder: folder.checkpointsPath,
            signal: controller.signal,
          },
          emit,
        );
        const last = result.evaluations.at(-1);
        const first = result.evaluations[0];
        folder.writeSummary({ status: 'completed', steps: result.steps, seconds: result.seconds, backend: backend?.name, first, last, evaluations: result.evaluations });
        emit({ type: 'run-end', time: new Date().toISOString(), status: 'completed', step: result.steps });
        output.log(
          `done: ${result.steps} steps in ${Math.round(result.seconds)} s; held-out success ${pct(first?.success)} → ${pct(last?.success)}. Run folder: ${folder.path}`,
        );
        setExitCode(EXIT_SUCCESS);
      } catch (error) {
        const cancelled = controller.signal.aborted;
        const message = error instanceof Error ? error.message : String(error);
        emit({ type: 'run-end', time: new Date().toISOString(), status: cancelled ? 'cancelled' : 'failed', error: { name: (error as Error)?.name ?? 'Error', message } });
        folder.writeSummary({ status: cancelled ? 'cancelled' : 'failed', error: message });
        if (!cancelled) throw error;
        output.log(`cancelled. Run folder: ${folder.path}`);
        setExitCode(EXIT_CANCELLED);
      } finally {
        process.removeListener('SIGINT', stop);
        model.dispose();
        const plots = await writeRunPlots(folder.path, folder.readMetrics());
        output.log(`plots: ${plots.filter((path) => path.endsWith('.png')).join(', ')}`);
      }
    });
}

function pct(value: number | undefined): string {
  return value === undefined ? '?' : `${(value * 100).toFixed(1)}%`;
}
