import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LookingOracleOptions } from '@saccade/core';
import { parse as parseYaml } from 'yaml';
import { ConfigError } from './config-error';
import { RUN_FILES, runPaths } from '@saccade/runs';
import { RunFolder } from './run-folder';

/** The env a training run played, as its config.yaml says: what `eval --env-from` and `serve model` take from it. */
export interface RunEnvSettings {
  envId?: string;
  envOptions: Record<string, unknown>;
  maxTurns?: number;
  /** Tools the policy could call inside its episodes. */
  tools: string[];
  /** Settings of those tools, by name. */
  toolOptions: Record<string, Record<string, unknown>>;
  /** When the run's looking oracle counted a target as seen (`lookingOracle`), when it set one. */
  lookingOracle?: LookingOracleOptions;
  /** Plug-in packages the run loaded (its envs or tools may come from them). */
  plugins: string[];
}

/** What a training run folder says about its policy: the newest checkpoint and how it was trained to be prompted. */
export interface TrainedRun extends RunEnvSettings {
  checkpoint: string;
  policyView?: string;
  historyWindow?: number;
  /** Tokens a response could take in the run's held-out evaluations (its last phase's maxTokens). */
  maxTokens?: number;
}

/**
 * A training run folder's newest complete checkpoint and the env, prompt view and history window it
 * was trained with (its config.yaml); for a checkpoint folder inside a run, that checkpoint and the
 * run's settings; undefined for a checkpoint folder outside a run.
 */
export function readTrainedRun(path: string, source: string): TrainedRun | undefined {
  let checkpoint: string;
  let runPath: string;
  if (existsSync(join(path, RUN_FILES.checkpointManifest))) {
    // A checkpoint folder: inside a run's checkpoints/ it is served as that run trained it.
    runPath = join(path, '..', '..');
    if (!RunFolder.isRunFolder(runPath) || !existsSync(runPaths(runPath).config)) return undefined;
    checkpoint = path;
  } else {
    if (!RunFolder.isRunFolder(path)) return undefined;
    const last = RunFolder.open(path).lastCheckpoint();
    if (last === undefined) throw new ConfigError({ source, issues: [`--checkpoint: the run folder ${path} has no complete checkpoint`] });
    checkpoint = last.path;
    runPath = path;
  }
  const config = readRunConfig(runPath);
  const maxTokens = evaluationMaxTokens(config);
  return {
    checkpoint,
    ...envSettings(config),
    ...(config.policyView === undefined ? {} : { policyView: config.policyView }),
    ...(typeof config.historyWindow === 'number' ? { historyWindow: config.historyWindow } : {}),
    ...(maxTokens === undefined ? {} : { maxTokens }),
  };
}

/**
 * The response budget of a run's held-out evaluations: its RL phase's maxTokens when that phase
 * ran steps, else SFT's (a visual-search call takes ~60 tokens, past the default 48).
 */
function evaluationMaxTokens(config: RunConfig): number | undefined {
  const rl = config.algorithm === 'ppo' ? config.ppo : config.grpo;
  const last = typeof rl?.steps === 'number' && rl.steps > 0 ? rl : config.sft;
  return typeof last?.maxTokens === 'number' ? last.maxTokens : undefined;
}

/**
 * The env settings of a training run (its folder, or a checkpoint folder inside it), read from its
 * config.yaml: a ConfigError naming `flag` when the folder is no run or its config says no env.
 */
export function readRunEnvSettings(path: string, flag: string): RunEnvSettings {
  const runPath = existsSync(join(path, RUN_FILES.checkpointManifest)) ? join(path, '..', '..') : path;
  if (!RunFolder.isRunFolder(runPath) || !existsSync(runPaths(runPath).config)) {
    throw new ConfigError({ source: flag, issues: [`${flag}: expected a training run folder (one with config.yaml, as saccade train leaves it) or a checkpoint inside one, received ${path}`] });
  }
  const settings = envSettings(readRunConfig(runPath));
  if (settings.envId === undefined) throw new ConfigError({ source: flag, issues: [`${flag}: the config.yaml of ${runPath} names no env (env.id)`] });
  return settings;
}

type PhaseConfig = { steps?: number; maxTokens?: number };

type RunConfig = {
  env?: { id?: string; options?: Record<string, unknown>; maxTurns?: number };
  algorithm?: string;
  sft?: PhaseConfig;
  grpo?: PhaseConfig;
  ppo?: PhaseConfig;
  policyView?: string;
  historyWindow?: number;
  tools?: string[];
  toolOptions?: Record<string, Record<string, unknown>>;
  lookingOracle?: LookingOracleOptions;
  plugins?: string[];
};

function readRunConfig(runPath: string): RunConfig {
  try {
    return (parseYaml(readFileSync(runPaths(runPath).config, 'utf8')) ?? {}) as RunConfig;
  } catch {
    /* a run folder without a readable config: the flags must say the env */
    return {};
  }
}

function envSettings(config: RunConfig): RunEnvSettings {
  return {
    ...(config.env?.id === undefined ? {} : { envId: config.env.id }),
    envOptions: config.env?.options ?? {},
    ...(config.env?.maxTurns === undefined ? {} : { maxTurns: config.env.maxTurns }),
    tools: Array.isArray(config.tools) ? config.tools : [],
    toolOptions: config.toolOptions ?? {},
    ...(config.lookingOracle === undefined ? {} : { lookingOracle: config.lookingOracle }),
    plugins: Array.isArray(config.plugins) ? config.plugins : [],
  };
}
