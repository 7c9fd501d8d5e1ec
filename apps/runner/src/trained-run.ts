import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ConfigError } from './config-error';
import { RUN_FILES, runPaths } from '@saccade/runs';
import { RunFolder } from './run-folder';

/** What a training run folder says about its policy: the newest checkpoint and how it was trained to be prompted. */
export interface TrainedRun {
  checkpoint: string;
  envId?: string;
  envOptions: Record<string, unknown>;
  policyView?: string;
  historyWindow?: number;
  maxTurns?: number;
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
  let config: { env?: { id?: string; options?: Record<string, unknown>; maxTurns?: number }; policyView?: string; historyWindow?: number } = {};
  try {
    config = (parseYaml(readFileSync(runPaths(runPath).config, 'utf8')) ?? {}) as typeof config;
  } catch {
    /* a run folder without a readable config: the flags must say the env */
  }
  return {
    checkpoint,
    ...(config.env?.id === undefined ? {} : { envId: config.env.id }),
    envOptions: config.env?.options ?? {},
    ...(config.policyView === undefined ? {} : { policyView: config.policyView }),
    ...(typeof config.historyWindow === 'number' ? { historyWindow: config.historyWindow } : {}),
    ...(config.env?.maxTurns === undefined ? {} : { maxTurns: config.env.maxTurns }),
  };
}
