import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import { convertDataset, DatasetFormatError, exportVagenDataset, exportVerlParquet, findDatasetAdapter, listDatasetAdapters, type ConvertSummary, type ExportSummary } from '@saccade/data';
import { TaskFileError } from '@saccade/env-vqa';
import { InvalidArgumentError } from '@saccade/spec';
import { Command } from 'commander';
import { parse as parseYaml } from 'yaml';
import { EXIT_SUCCESS, EXIT_USAGE } from '../exit-codes';
import { dataGenerateCommand } from './data-generate-command';
import type { Output } from '../output';
import { ensureOutputFolder } from '../output-folder';
import { describeWriteError, isFileSystemError, UsageError } from '../usage-error';

interface ConvertFlags {
  input: string;
  output: string;
  images?: string;
  split?: string;
  datasetName?: string;
  taskFamily?: string;
  skipInvalid?: boolean;
  json?: boolean;
}

interface ExportFlags {
  input?: string;
  output?: string;
  config?: string;
  train: string;
  test: string;
  format: string;
  split: string;
  systemPrompt: boolean;
  skipInvalid?: boolean;
  json?: boolean;
}

/** Problems printed one a line under --skip-invalid; past this many, only counted. */
const SHOWN_PROBLEMS = 20;

/** `saccade data list|convert|export`: public datasets' own layouts → Saccade task files → verl Parquet. */
export function dataCommand(output: Output, setExitCode: (code: number) => void): Command {
  const command = new Command('data').description('convert public datasets to Saccade task files, export them for verl, and generate SFT data (best-of-n, MCTS)');
  const usage = (message: string): void => {
    output.error(message);
    setExitCode(EXIT_USAGE);
  };
  /** Prints skipped records as they come (the first few), so nothing is dropped silently. */
  const reporter = () => {
    let count = 0;
    return {
      report: (error: DatasetFormatError | TaskFileError): void => {
        count++;
        if (count <= SHOWN_PROBLEMS) output.error(`skipped: ${error.message}`);
        else if (count === SHOWN_PROBLEMS + 1) output.error('skipped: … (more problems are counted, not printed)');
      },
    };
  };

  command
    .command('list')
    .description('list the datasets convert reads, with the layout each expects')
    .option('--json', 'print JSON')
    .action((flags: { json?: boolean }) => {
      const adapters = listDatasetAdapters();
      if (flags.json) output.log(JSON.stringify(adapters.map(({ name, aliases, taskFamily, input, images }) => ({ name, aliases, taskFamily, input, images }))));
      else for (const adapter of adapters) output.log(`${adapter.name.padEnd(15)} ${adapter.taskFamily.padEnd(14)} ${adapter.input.replaceAll('`', '')}`);
      setExitCode(EXIT_SUCCESS);
    });

  command
    .command('convert')
    .description("convert a dataset from its published layout to a Saccade task file (JSONL, see docs/data.md)")
    .argument('<dataset>', 'the dataset: chartqa, plotqa, figureqa, geometry3k, geoqa, unigeo, mapqa, docvqa, infographicvqa, scienceqa, ai2d, vizwiz, clevr, clevr-math, a-okvqa, tabmwp, iconqa, mathvista, vstar, blink, sat, screenspot, vlmgym, llava (see saccade data list)')
    .requiredOption('--input <path>', "the dataset's annotation file or folder as published, or the folder it downloads as (the file is found in it)")
    .requiredOption('--output <file>', 'the task file to write (.jsonl); image paths in it are relative to its folder')
    .option('--images <folder>', "the images folder (default: where the published layout puts it; one level up or down is found too; datasets with embedded images write them here)")
    .option('--split <name>', "keep one split where a file or folder holds several (ScienceQA, AI2D, BLINK); in a dataset's folder, pick that split's file")
    .option('--dataset-name <name>', 'the dataset name written into each task (vlmgym, LLaVA)')
    .option('--task-family <name>', 'the task family written into each task (vlmgym, LLaVA)')
    .option('--skip-invalid', 'skip records that cannot be converted (each is reported) instead of stopping at the first')
    .option('--json', 'print the summary as JSON')
    .action(async (dataset: string, flags: ConvertFlags) => {
      if (findDatasetAdapter(dataset) === undefined) return usage(`unknown dataset "${dataset}"; expected one of: ${listDatasetAdapters().map((adapter) => adapter.name).join(', ')}`);
      if (extname(flags.output) !== '.jsonl') return usage(`--output: expected a .jsonl task file, received ${flags.output} (export it to Parquet with saccade data export)`);
      const unwritable = checkOutputFile(flags.output);
      if (unwritable !== undefined) return usage(unwritable);
      const { report } = reporter();
      let summary: ConvertSummary;
      try {
        summary = await convertDataset({ dataset, input: flags.input, output: flags.output, images: flags.images, split: flags.split, datasetName: flags.datasetName, taskFamily: flags.taskFamily, skipInvalid: flags.skipInvalid, onInvalid: report });
      } catch (error) {
        if (DatasetFormatError.isInstance(error)) {
          // A folder that is not the dataset (or holds several inputs) is no record to skip.
          // --skip-invalid skips records: no help for a problem with the whole file, nor when it is already on.
          const hint =
            error.field === '(folder)'
              ? `point --input at the dataset's file or its folder as downloaded (saccade data list shows each layout)`
              : flags.skipInvalid === true || error.field === '(file)'
                ? 'fix the input'
                : 'fix the input, or pass --skip-invalid to skip such records';
          return usage(`${error.message}\nnothing was written; ${hint}`);
        }
        if (InvalidArgumentError.isInstance(error)) return usage(error.message);
        if (isFileSystemError(error) && error.path !== undefined && resolve(error.path).startsWith(resolve(flags.output))) return usage(`--output: ${describeWriteError(flags.output, error, 'file')}`);
        throw error;
      }
      if (flags.json) output.log(JSON.stringify(summary));
      else {
        const leftOut = summary.leftOut > 0 ? `, left out ${summary.leftOut} (${Object.entries(summary.leftOutReasons).map(([reason, count]) => `${count} of ${reason}`).join(', ')})` : '';
        output.log(`${summary.dataset}: read ${summary.read} records, wrote ${summary.written} tasks to ${summary.output}, skipped ${summary.skipped}${leftOut}`);
      }
      if (summary.written === 0) return usage(`no task was written from ${summary.input}${summary.skipped > 0 ? ` (all ${summary.skipped} records were invalid)` : ''}; ${summary.output} was not written`);
      setExitCode(EXIT_SUCCESS);
    });

  command
    .command('export')
    .description("export to a trainer's format: verl's RL Parquet from a task file (prompt, images, reward_model, extra_info), or VAGEN's dataset from its env-config YAML")
    .argument('[layout]', 'verl or vagen (the same as --format)')
    .option('--input <file>', 'verl: a Saccade task file (.jsonl)')
    .option('--output <file>', 'verl: the Parquet file to write')
    .option('--config <file>', "vagen: VAGEN's env-config YAML ({name: {env_name, env_config, train_size, test_size}}); env_name may be any env the env service serves")
    .option('--train <file>', 'vagen: the train Parquet to write', 'train.parquet')
    .option('--test <file>', 'vagen: the test Parquet to write', 'test.parquet')
    .option('--format <format>', 'the layout: verl | vagen', 'verl')
    .option('--split <name>', 'the split written in extra_info', 'train')
    .option('--no-system-prompt', 'leave out the system message (the prompt is then one user message)')
    .option('--skip-invalid', 'skip invalid tasks and tasks whose images are missing (each is reported) instead of stopping')
    .option('--json', 'print the summary as JSON')
    .action(async (layout: string | undefined, flags: ExportFlags) => {
      const format = layout ?? flags.format;
      if (format === 'vagen') {
        if (flags.config === undefined) return usage("data export vagen: --config <env_config.yaml> is required (VAGEN's env-config YAML)");
        for (const file of [flags.train, flags.test]) {
          const unwritable = checkOutputFile(file);
          if (unwritable !== undefined) return usage(unwritable);
        }
        let config: unknown;
        try {
          config = parseYaml(readFileSync(flags.config, 'utf8'));
        } catch (error) {
          return usage(`--config: could not read ${flags.config} as YAML: ${(error as Error).message.split('\n')[0]}`);
        }
        try {
          const counts = await exportVagenDataset({ config, train: flags.train, test: flags.test });
          if (flags.json) output.log(JSON.stringify({ ...counts, trainFile: resolve(flags.train), testFile: resolve(flags.test) }));
          else output.log(`vagen: wrote ${counts.train} train rows to ${resolve(flags.train)} and ${counts.test} test rows to ${resolve(flags.test)}`);
        } catch (error) {
          if (InvalidArgumentError.isInstance(error)) return usage(`--config ${flags.config}: ${error.message}`);
          throw error;
        }
        return setExitCode(EXIT_SUCCESS);
      }
      if (format !== 'verl') return usage(`data export: expected the layout verl or vagen, received ${format}`);
      if (flags.input === undefined || flags.output === undefined) return usage('data export verl: --input <tasks.jsonl> and --output <file.parquet> are required');
      const unwritable = checkOutputFile(flags.output);
      if (unwritable !== undefined) return usage(unwritable);
      const { report } = reporter();
      let summary: ExportSummary;
      try {
        summary = await exportVerlParquet({ input: flags.input, output: flags.output, split: flags.split, systemPrompt: flags.systemPrompt, skipInvalid: flags.skipInvalid, onInvalid: report });
      } catch (error) {
        if (TaskFileError.isInstance(error)) return usage(`${error.message}\nnothing was written; fix the task file${flags.skipInvalid === true ? '' : ', or pass --skip-invalid'}`);
        if (isFileSystemError(error) && error.path !== undefined && resolve(error.path).startsWith(resolve(flags.output))) return usage(`--output: ${describeWriteError(flags.output, error, 'file')}`);
        throw error;
      }
      if (flags.json) output.log(JSON.stringify(summary));
      else output.log(`verl: read ${summary.read} tasks, wrote ${summary.written} rows to ${summary.output}, skipped ${summary.skipped}`);
      if (summary.written === 0) return usage(`no row was written from ${summary.input}; ${summary.output} was not written`);
      setExitCode(EXIT_SUCCESS);
    });

  command.addCommand(dataGenerateCommand(output, setExitCode));

  return command;
}

/** Why `--output` cannot be written (its folder cannot be made or written, or it is a folder), checked before any work; undefined when it can. */
function checkOutputFile(file: string): string | undefined {
  if (existsSync(file) && statSync(file).isDirectory()) return `--output: expected a file, received ${file}, which is a folder`;
  try {
    ensureOutputFolder(dirname(resolve(file)), '--output');
  } catch (error) {
    if (UsageError.isInstance(error)) return error.message;
    throw error;
  }
  return undefined;
}
