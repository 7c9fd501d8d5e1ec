import { explainBackendFailure } from '../backend-failure';
import type { RunEvent } from '@saccade/spec';
import { backendInfo, describeNativeMatMul, initTensor } from '@saccade/tensor';
import { Command } from 'commander';
import { envToolsConflict, listTools, makeEnv } from '@saccade/core';
import { GroundingFileError, sftDemonstrations, type SftDemonstrations } from '@saccade/datagen';
import { parseToolOptions, registerBuiltinTools } from '../builtin-tools';
import { ConfigError } from '../config-error';
import { loadPlugins, requestedPlugins } from '../plugins';
import { EXIT_CANCELLED, EXIT_SUCCESS, EXIT_USAGE } from '../exit-codes';
import { listRecipes, loadTrainConfig, mergeDeep } from '../load-train-config';
import type { Output } from '../output';
import { writeRunPlots } from '../plots/write-run-plots';
import { RunFolder } from '../run-folder';
import { createTrainDisplay } from '../train-display';
import { JUDGE_FLAG_HELP, judgeOptionFromFlags, type JudgeFlags } from '../judge/judge-settings';
import { createRunEventHooks } from '../run-event-hooks';
import { createControlReader, RUN_FILES } from '@saccade/runs';
import type { TrainConfig } from '../train-config';
import { cutOfEvent, plannedPhases, prepareTrainRun, runTraining, secondPhase, type PhaseCut } from '../train-run';
import { basename, join } from 'node:path';

interface TrainFlags extends JudgeFlags {
  tensorboard?: string;
  config?: string;
  name?: string;
  out?: string;
  preset?: string;
  steps?: number;
  grpoSteps?: number;
  algorithm?: string;
  env?: string;
  envOptions?: string;
  maxTurns?: number;
  tools?: string;
  sftFile?: string[];
  skipInvalid?: boolean;
  recipe?: string;
  toolOptions?: string;
  oracle?: boolean;
  policyView?: string;
  historyWindow?: number;
  advantageMask?: 'loss' | 'generated';
  batchSize?: number;
  learningRate?: number;
  evalEvery?: number;
  evalEpisodes?: number;
  trainSeeds?: number;
  timeLimit?: number;
  grpoTimeLimit?: number;
  targetSuccess?: number;
  checkpointEvery?: number;
  workers?: number;
  seed?: number;
  resume?: string;
  plain?: boolean;
  set?: string;
}

const integer = (value: string): number => Number(value);

/** `--tool-options` as a usage error (exit 2) when it is not settings by tool name. */
function toolOptionsFlag(text: string): Record<string, Record<string, unknown>> {
  try {
    return parseToolOptions(text);
  } catch (error) {
    throw new ConfigError({ source: '--tool-options', issues: [(error as Error).message.replace(/^--tool-options: /, '')] });
  }
}

/** `--set`: config keys as a JSON mapping (a usage error naming the flag otherwise). */
function setFlag(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigError({ source: '--set', issues: [`not valid JSON: ${(error as Error).message}`] });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConfigError({ source: '--set', issues: [`expected a JSON mapping of config keys, e.g. '{"grpo": {"temperature": 0.7}}'; got ${text}`] });
  }
  return value as Record<string, unknown>;
}

/** `saccade train`: with no arguments, the built-in default run. */
export function trainCommand(output: Output, setExitCode: (code: number) => void): Command {
  return new Command('train')
    .description('train the built-in model (no arguments: the default run on FrozenLake from images, SFT then GRPO)')
    .option('-r, --recipe <name>', 'a named config shipped with saccade (below; a config file and flags override it); default frozenlake')
    .option('-c, --config <file>', 'YAML config file (flags override it)')
    .option('--set <json>', 'config keys as JSON, merged over the recipe and the config file (the other flags override it), e.g. \'{"grpo": {"temperature": 0.7, "steps": 60}}\'')
    .option('--name <name>', 'run name (default: train-<time>)')
    .option('--out <folder>', 'folder that holds run folders (default: runs)')
    .option('--preset <preset>', 'model preset: tiny | small')
    .option('--steps <n>', 'SFT steps', integer)
    .option('--grpo-steps <n>', 'GRPO steps after SFT (0 skips GRPO)', integer)
    .option('--algorithm <name>', 'the RL phase after SFT: grpo (default) | ppo (settings under `ppo:` in the config) | sft (none)')
    .option('--env <id>', 'a registered env to train on (saccade envs list); default saccade/FrozenLake-v1')
    .option('--env-options <json>', "the env's options as JSON (default with --env: none)")
    .option('--max-turns <n>', 'turn cap per episode', integer)
    .option('--tools <names>', 'tools the policy may call in its episodes, comma-separated (saccade tools list)')
    .option('--tool-options <json>', 'settings of configurable tools by name, JSON or @file, e.g. \'{"search_coordinate": {"offset": 256}}\'')
    .option('--sft-file <file>', 'an SFT file to train on in the SFT phase (saccade data generate output; repeatable)', (value: string, previous: string[] = []) => [...previous, value])
    .option('--skip-invalid', 'skip records of the SFT files that cannot be read (counted) instead of refusing the run')
    .option('--no-oracle', "SFT on the SFT files only, without the env oracle's demonstrations")
    .option('--policy-view <view>', "what the policy reads: image (images only, default) | full (the env's text and images) | no-system (all but the system prompt)")
    .option('--history-window <n>', 'earlier turns each prompt keeps (default 0)', integer)
    .option('--advantage-mask <tokens>', "tokens in advantage estimation: loss (the trained ones, default) | generated (also responses that never ended)")
    .option('--batch-size <n>', 'SFT examples per step', integer)
    .option('--learning-rate <x>', 'SFT peak learning rate', Number)
    .option('--eval-every <n>', 'SFT steps between held-out evaluations', integer)
    .option('--eval-episodes <n>', 'held-out episodes per evaluation', integer)
    .option('--train-seeds <n>', 'training seeds (demonstrations and GRPO prompts)', integer)
    .option('--time-limit <seconds>', "SFT's time guard: stop SFT after this many seconds even with steps left, reported as a cut (default none: SFT runs its steps)", Number)
    .option('--grpo-time-limit <seconds>', "GRPO's time guard, as --time-limit (default none)", Number)
    .option('--target-success <fraction>', 'stop once held-out success reaches this (0–1)', Number)
    .option('--checkpoint-every <n>', 'steps between checkpoints (for --resume)', integer)
    .option('--workers <n>', 'data-parallel worker threads (default: one per spare core)', integer)
    .option('--seed <n>', 'seed of the data order and sampling', integer)
    .option('--resume <run folder>', "continue a stopped or killed run from its newest checkpoint (its config.yaml; other flags but --plain are ignored)")
    .option('--plain', 'progress lines instead of the terminal UI (the default off a terminal and in CI)')
    .option('--tensorboard <folder>', 'also write every metric as it comes to TensorBoard event files in <folder>/<run name>/')
    .option('--judge-url <url>', JUDGE_FLAG_HELP.url)
    .option('--judge-model <name>', JUDGE_FLAG_HELP.model)
    .option('--judge-api-key-env <name>', JUDGE_FLAG_HELP.apiKeyEnv)
    .addHelpText('after', () => {
      const recipes = listRecipes();
      const width = Math.max(...recipes.map((recipe) => recipe.name.length));
      return `\nRecipes (--recipe):\n${recipes.map((recipe) => `  ${recipe.name.padEnd(width)}  ${recipe.description}`).join('\n')}`;
    })
    .action(async (flags: TrainFlags, command: Command) => {
      let config: TrainConfig;
      let folder: RunFolder;
      let demonstrations: SftDemonstrations | undefined;
      try {
        if (flags.resume !== undefined) {
          folder = RunFolder.open(flags.resume);
          config = await loadTrainConfig(join(flags.resume, RUN_FILES.config), {});
          await loadPlugins(config.plugins);
          demonstrations = await readSftFiles(config, output);
        } else {
          config = await loadTrainConfig(flags.config, mergeDeep(setFlag(flags.set), {
            name: flags.name,
            outputFolder: flags.out,
            seed: flags.seed,
            targetSuccess: flags.targetSuccess,
            algorithm: flags.algorithm,
            ...(flags.env === undefined && flags.envOptions === undefined && flags.maxTurns === undefined && flags.judgeUrl === undefined
              ? {}
              : { env: { id: flags.env, options: withJudge(envOptionsFlag(flags), flags), maxTurns: flags.maxTurns } }),
            // `--tools none`: the recipe without its tools (the ablation).
            tools: flags.tools === undefined ? undefined : flags.tools.trim() === 'none' ? [] : flags.tools.split(',').map((name) => name.trim()).filter((name) => name.length > 0),
            toolOptions: flags.toolOptions === undefined ? undefined : toolOptionsFlag(flags.toolOptions),
            sftFiles: flags.sftFile,
            sftSkipInvalid: flags.skipInvalid,
            policyView: flags.policyView,
            historyWindow: flags.historyWindow,
            advantageMask: flags.advantageMask,
            checkpointEvery: flags.checkpointEvery,
            workers: flags.workers,
            model: flags.preset === undefined ? undefined : { preset: flags.preset },
            seeds: {
              eval: flags.evalEpisodes === undefined ? undefined : { start: 0, count: flags.evalEpisodes },
              train: flags.trainSeeds === undefined ? undefined : { start: 10_000, count: flags.trainSeeds },
            },
            sft: {
              ...(flags.oracle === false ? { oracle: false } : {}),
              steps: flags.steps,
              batchSize: flags.batchSize,
              learningRate: flags.learningRate,
              evalEvery: flags.evalEvery,
              timeLimitSeconds: flags.timeLimit,
            },
            grpo: { steps: flags.grpoSteps, timeLimitSeconds: flags.grpoTimeLimit },
          }), flags.recipe);
          // The run's plug-ins (its config's, --plugin's, SACCADE_PLUGINS') before its env is made; config.yaml keeps them for --resume.
          const plugins = await loadPlugins([...config.plugins, ...requestedPlugins(command)]);
          config = { ...config, plugins: [...new Set(plugins.map((plugin) => plugin.spec))] };
          await checkEnv(config);
          // Read (images decoded) before the run folder exists: a bad file is one line, and no run is left behind.
          demonstrations = await readSftFiles(config, output);
          const runName = config.name ?? `train-${new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)}`;
          folder = RunFolder.create(config.outputFolder, runName);
          config = { ...config, name: basename(folder.path) };
          folder.writeConfig(config);
        }
      } catch (error) {
        if (!ConfigError.isInstance(error) && !(flags.resume !== undefined && error instanceof Error)) throw error;
        output.error((error as Error).message);
        setExitCode(EXIT_USAGE);
        return;
      }

      // The tools the policy may call, registered as `saccade eval` does; a name none registers is a usage error.
      const conflict = envToolsConflict(config.env.id, config.tools);
      if (conflict !== undefined) {
        output.error(conflict);
        setExitCode(EXIT_USAGE);
        return;
      }
      let closeTools = async (): Promise<void> => {};
      if (config.tools.length > 0) {
        let builtin: Awaited<ReturnType<typeof registerBuiltinTools>>;
        try {
          builtin = await registerBuiltinTools(config.toolOptions);
        } catch (error) {
          output.error((error as Error).message);
          setExitCode(EXIT_USAGE);
          return;
        }
        closeTools = builtin.close;
        const known = new Set(listTools().map((tool) => tool.name));
        const unknown = config.tools.filter((name) => !known.has(name));
        if (unknown.length > 0) {
          await closeTools();
          output.error(`--tools: no tool is named ${unknown.join(', ')}; expected names from saccade tools list (${[...known].sort().join(', ')}).`);
          setExitCode(EXIT_USAGE);
          return;
        }
      }

      await initTensor();
      const backend = backendInfo();
      const name = basename(folder.path);
      const setup = { ...(await prepareTrainRun(config, folder, flags.resume !== undefined)), ...(demonstrations ? { demonstrations } : {}) };
      demonstrations = undefined;
      const { model } = setup;
      const startStep = setup.resumeFrom?.step ?? 0;
      if (flags.resume !== undefined) folder.truncateAfter(startStep);
      output.log(
        `${flags.resume === undefined ? 'run' : `resuming at step ${startStep}`} ${folder.path}: ${config.env.id}, ${config.model.preset} model (${model.parameterCount.toLocaleString('en-US')} parameters), backend ${backend?.name ?? '?'}${backend?.name === 'wasm' ? `, ${describeNativeMatMul()}` : ''}`,
      );

      const controller = new AbortController();
      const display = await createTrainDisplay({
        output,
        runFolder: folder.path,
        runName: name,
        ...(backend ? { backend: backend.name } : {}),
        totalSteps: config.sft.steps + (secondPhase(config)?.steps ?? 0),
        ...plannedPhases(config, setup.resumeFrom),
        plain: flags.plain === true,
        stop: () => controller.abort(),
      });
      const stop = (): void => {
        output.log('\nstopping: finishing the current step (Ctrl-C again to quit at once)');
        controller.abort();
        process.once('SIGINT', () => process.exit(130));
      };
      process.once('SIGINT', stop);
      const hooks = createRunEventHooks({ tensorboard: flags.tensorboard, runName: name });
      const emit = (event: RunEvent): void =>
        hooks.emit(event, (event) => {
          folder.appendEvent(event);
          display.emit(event);
        });
      const control = createControlReader(folder.path, () => controller.abort());
      // The phases a time guard cut, this process's and (on --resume) those its events kept: summary.json lists them all.
      const cuts: PhaseCut[] = flags.resume === undefined ? [] : folder.readEvents().flatMap((event) => cutOfEvent(event) ?? []);
      emit({ type: 'run-start', time: new Date().toISOString(), runName: name, config, ...(startStep > 0 ? { step: startStep } : {}) });
      try {
        const result = await runTraining(config, folder, setup, {
          emit: (event) => {
            const cut = cutOfEvent(event);
            if (cut) cuts.push(cut);
            emit(event);
          },
          signal: controller.signal,
          betweenSteps: control.betweenSteps,
        });
        if (controller.signal.aborted) throw new Error('stopped');
        const last = result.evaluations.at(-1);
        const first = result.evaluations[0];
        const sftEnd = result.evaluations.filter((evaluation) => evaluation.phase === 'sft').at(-1);
        folder.writeSummary({ status: 'completed', steps: result.steps, seconds: result.seconds, backend: backend?.name, cuts, first, sftEnd, last, evaluations: result.evaluations });
        emit({ type: 'run-end', time: new Date().toISOString(), status: 'completed', step: result.steps });
        await display.close();
        output.log(
          `done: ${result.steps} steps in ${Math.round(result.seconds)} s; held-out success ${pct(first?.success)} → ${pct(last?.success)}. Run folder: ${folder.path}`,
        );
        if (cuts.length > 0) output.error(cutWarning(cuts));
        setExitCode(EXIT_SUCCESS);
      } catch (error) {
        const cancelled = controller.signal.aborted;
        const message = error instanceof Error ? error.message : String(error);
        emit({ type: 'run-end', time: new Date().toISOString(), status: cancelled ? 'cancelled' : 'failed', error: { name: (error as Error)?.name ?? 'Error', message } });
        folder.writeSummary({ status: cancelled ? 'cancelled' : 'failed', error: message, cuts });
        await display.close();
        if (!cancelled) throw explainBackendFailure(error, folder.path);
        output.log(`cancelled; continue with: saccade train --resume ${folder.path}`);
        setExitCode(EXIT_CANCELLED);
      } finally {
        process.removeListener('SIGINT', stop);
        hooks.close();
        model.dispose();
        await closeTools();
        const plots = await writeRunPlots(folder.path, folder.readMetrics());
        output.log(`plots: ${plots.filter((path) => path.endsWith('.png')).join(', ')}`);
      }
    });
}

/**
 * The SFT files as demonstrations, read before anything is written; a bad record is a ConfigError
 * of one line naming the file, line and field (or, with --skip-invalid, skipped and counted).
 */
async function readSftFiles(config: TrainConfig, output: Output): Promise<SftDemonstrations | undefined> {
  if (config.sftFiles.length === 0 || config.sft.steps === 0) return undefined;
  let first: GroundingFileError | undefined;
  let demonstrations: SftDemonstrations;
  try {
    demonstrations = await sftDemonstrations(config.sftFiles, { skipInvalid: config.sftSkipInvalid, onInvalid: (error) => void (first ??= error) });
  } catch (error) {
    if (!GroundingFileError.isInstance(error)) throw error;
    const help = config.sftSkipInvalid || error.field === '(file)' ? '' : ', or pass --skip-invalid to skip such records';
    throw new SftFileError(`--sft-file: ${error.message}; nothing was written (fix the file${help})`);
  }
  if (demonstrations.skipped > 0) output.error(`--sft-file: skipped ${demonstrations.skipped} invalid record${demonstrations.skipped === 1 ? '' : 's'} (first: ${first?.message})`);
  if (demonstrations.trajectories.length === 0 && !config.sft.oracle) throw new SftFileError(`--sft-file: no record to train on in ${config.sftFiles.join(', ')} and --no-oracle; nothing was written`);
  return demonstrations;
}

/** A usage error about the SFT files, printed as its one line. */
class SftFileError extends ConfigError {
  constructor(line: string) {
    super({ source: '--sft-file', issues: [line] });
    this.message = line;
  }
}

/** Makes the run's env once, so that an unknown id or an option it refuses is a usage error before the run starts. */
async function checkEnv(config: TrainConfig): Promise<void> {
  try {
    await makeEnv(config.env.id, config.env.options, { maxTurns: config.env.maxTurns }).close();
  } catch (error) {
    throw new ConfigError({ source: 'env (--env, --env-options)', issues: [(error as Error).message] });
  }
}

/** The env options with `judge` settings from --judge-url (merged over the recipe's or config's options). */
function withJudge(options: Record<string, unknown> | undefined, flags: TrainFlags): Record<string, unknown> | undefined {
  const judge = judgeOptionFromFlags(flags);
  return judge === undefined ? options : { ...options, judge };
}

/** --env-options as an object; with --env and no options, none (the default env's options are FrozenLake's). */
function envOptionsFlag(flags: TrainFlags): Record<string, unknown> | undefined {
  if (flags.envOptions === undefined) return flags.env === undefined ? undefined : {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(flags.envOptions);
  } catch (error) {
    throw new ConfigError({ source: '--env-options', issues: [`expected a JSON object, got ${JSON.stringify(flags.envOptions)} (${(error as Error).message})`] });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError({ source: '--env-options', issues: [`expected a JSON object, got ${JSON.stringify(flags.envOptions)}`] });
  }
  return parsed as Record<string, unknown>;
}

/** The run's last word on its cuts: one line, after `done:`, that no one reads as the config's curve. */
export function cutWarning(cuts: readonly PhaseCut[]): string {
  const phases = cuts.map((cut) => `${cut.phase.toUpperCase()} at step ${cut.atStep} of ${cut.ofSteps} (${cut.phase}.timeLimitSeconds: ${cut.limitSeconds} s)`);
  return `warning: a time limit cut this run short: ${phases.join(', ')}. Its curve is not the one its configured steps give (summary.json: cuts); raise or remove the limit to run every step.`;
}

function pct(value: number | undefined): string {
  return value === undefined ? '?' : `${(value * 100).toFixed(1)}%`;
}
