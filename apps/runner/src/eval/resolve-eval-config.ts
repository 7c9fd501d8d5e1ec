import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { VISION_QA_ID } from '@saccade/env-vqa';
import { parse as parseYaml } from 'yaml';
import { ConfigError, describeIssues } from '../config-error';
import { RunFolder } from '../run-folder';
import { RUN_FILES } from '@saccade/runs';
import { readRunEnvSettings, readTrainedRun, type RunEnvSettings } from '../trained-run';
import { evalConfigSchema, type EvalConfig } from './eval-config';

export interface EvalFlags {
  env?: string;
  tasks?: string;
  envOptions?: string;
  agent?: string;
  baseUrl?: string;
  model?: string;
  checkpoint?: string;
  modelPath?: string;
  dtype?: string;
  policyView?: string;
  temperature?: number;
  maxTokens?: number;
  episodes?: number;
  samples?: number;
  seed?: number;
  maxTurns?: number;
  concurrency?: number;
  tools?: string;
  envFrom?: string;
  name?: string;
  out?: string;
  resume?: string;
  json?: boolean;
  plain?: boolean;
}

const flagsSource = 'the command-line flags';

/** Turns `saccade eval`'s flags into a validated config; every mistake is a ConfigError naming the flag. */
export async function resolveEvalConfig(flags: EvalFlags): Promise<EvalConfig> {
  const problems: string[] = [];
  if (flags.env !== undefined && flags.tasks !== undefined) problems.push('--env and --tasks: give one of them (a task file runs on saccade/VisionQA-v1)');
  if (flags.envFrom !== undefined && flags.tasks !== undefined) problems.push('--env-from and --tasks: give one of them (--env-from plays the env a training run played)');
  if (flags.agent === undefined) problems.push('--agent: expected oracle | random | openai | policy | transformers');
  let envOptions: Record<string, unknown> = {};
  if (flags.envOptions !== undefined) {
    try {
      const parsed = JSON.parse(flags.envOptions) as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      envOptions = parsed as Record<string, unknown>;
    } catch (error) {
      problems.push(`--env-options: expected a JSON object such as '{"observation": "text"}' (${(error as Error).message})`);
    }
  }
  for (const [flag, value] of [['--episodes', flags.episodes], ['--samples', flags.samples], ['--seed', flags.seed], ['--max-turns', flags.maxTurns], ['--concurrency', flags.concurrency], ['--max-tokens', flags.maxTokens]] as const) {
    if (value !== undefined && !Number.isSafeInteger(value)) problems.push(`${flag}: expected an integer, received ${String(value)}`);
  }
  if (problems.length > 0) throw new ConfigError({ source: flagsSource, issues: problems });

  let envId = flags.env;
  let tasks: string | undefined;
  let episodes = flags.episodes;
  let checkpoint = flags.checkpoint === undefined ? undefined : resolve(flags.checkpoint);
  let policyView = flags.policyView;
  let historyWindow: number | undefined;
  let maxTurns = flags.maxTurns;
  let maxTokens = flags.maxTokens;
  let tools = flags.tools === undefined ? undefined : flags.tools.split(',').map((name) => name.trim()).filter((name) => name.length > 0);
  let toolOptions: Record<string, Record<string, unknown>> = {};
  let lookingOracle: RunEnvSettings['lookingOracle'];
  const plugins: string[] = [];
  if (flags.envFrom !== undefined) {
    // The env as a training run played it (its options, turn cap, tools): a served checkpoint meets the env it learned.
    const run = readRunEnvSettings(resolve(flags.envFrom), '--env-from');
    if (envId !== undefined && envId !== run.envId) {
      throw new ConfigError({ source: flagsSource, issues: [`--env-from: the run played ${run.envId}, --env names ${envId}; give one of them`] });
    }
    envId = run.envId;
    if (flags.envOptions === undefined) envOptions = run.envOptions;
    maxTurns ??= run.maxTurns;
    tools ??= run.tools;
    toolOptions = run.toolOptions;
    lookingOracle = run.lookingOracle;
    plugins.push(...run.plugins);
  }
  if (flags.tasks !== undefined) {
    tasks = resolve(flags.tasks);
    if (!existsSync(tasks)) throw new ConfigError({ source: flagsSource, issues: [`--tasks: ${flags.tasks} does not exist`] });
    envId = VISION_QA_ID;
    envOptions = { ...envOptions, taskFile: tasks };
    // By default each task once: seeds 0 … n − 1 pick tasks 0 … n − 1.
    if (episodes === undefined) {
      const { TaskFileSource } = await import('@saccade/env-vqa');
      const source = new TaskFileSource(tasks);
      try {
        episodes = await source.size();
      } catch (error) {
        throw new ConfigError({ source: flags.tasks, issues: [(error as Error).message] });
      } finally {
        await source.close();
      }
    }
  }
  if (flags.agent === 'policy' && checkpoint !== undefined) {
    // A training run folder: its newest checkpoint, and the env and view the policy was trained on.
    const trained = readTrainedRun(checkpoint, flagsSource);
    if (trained !== undefined) {
      checkpoint = trained.checkpoint;
      envId ??= trained.envId;
      if (flags.envOptions === undefined && flags.tasks === undefined) envOptions = trained.envOptions;
      policyView ??= trained.policyView;
      historyWindow = trained.historyWindow;
      maxTurns ??= trained.maxTurns;
      // The budget the run evaluated with: a call cut at 48 tokens is invalid JSON.
      maxTokens ??= trained.maxTokens;
      plugins.push(...trained.plugins);
    }
  }
  if (envId === undefined) throw new ConfigError({ source: flagsSource, issues: ['--env or --tasks: expected an env id (see saccade envs list) or a task file'] });

  const kind = flags.agent;
  const raw = {
    name: flags.name ?? `eval-${new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)}`,
    env: { id: envId, options: envOptions },
    ...(tasks === undefined ? {} : { tasks }),
    agent: {
      kind,
      ...(flags.baseUrl === undefined ? {} : { baseUrl: flags.baseUrl }),
      ...(flags.model === undefined ? {} : { model: flags.model }),
      ...(checkpoint === undefined ? {} : { checkpoint }),
      ...(flags.modelPath === undefined ? {} : { modelPath: resolve(flags.modelPath) }),
      ...(flags.dtype === undefined ? {} : { dtype: flags.dtype }),
      ...(policyView === undefined ? {} : { policyView }),
      ...(historyWindow === undefined ? {} : { historyWindow }),
      ...(flags.temperature === undefined ? {} : { temperature: flags.temperature }),
      ...(maxTokens === undefined ? {} : { maxTokens }),
    },
    episodes: episodes ?? 100,
    samples: flags.samples ?? 1,
    seed: flags.seed ?? 0,
    ...(maxTurns === undefined ? {} : { maxTurns }),
    // In-process models answer one call at a time; scripted and HTTP agents overlap episodes.
    concurrency: flags.concurrency ?? (kind === 'policy' || kind === 'transformers' ? 1 : 8),
    tools: tools ?? [],
    toolOptions,
    ...(lookingOracle === undefined ? {} : { lookingOracle }),
    outputFolder: flags.out ?? 'runs',
    plugins: [...new Set(plugins)],
  };
  const result = evalConfigSchema.safeParse(raw);
  if (!result.success) throw new ConfigError({ source: flagsSource, issues: describeIssues(result.error) });
  return result.data;
}

/** A resumed eval's config, read back from its run folder. */
export function readEvalConfig(folder: string): EvalConfig {
  const file = join(folder, RUN_FILES.config);
  let raw: unknown;
  try {
    RunFolder.open(folder);
    raw = parseYaml(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError({ source: file, issues: [(error as Error).message] });
  }
  const result = evalConfigSchema.safeParse(raw);
  if (!result.success) throw new ConfigError({ source: file, issues: describeIssues(result.error) });
  return result.data;
}

