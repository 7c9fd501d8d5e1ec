import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { RunEvent } from '@saccade/spec';
import { stringify as toYaml } from 'yaml';
import { lastCheckpoint, type CheckpointEntry } from './checkpoints';
import { readJsonLines } from './json-lines';
import { RUN_FILES } from './run-files';
import { writeFileAtomic } from './write-file-atomic';

/** A row of metrics.jsonl: the flat numbers of an `update-end`, `eval-end` or `rollout-end`. */
export interface MetricsRow {
  kind: 'train' | 'eval' | 'rollout';
  step: number;
  [metric: string]: unknown;
}

/** Options of `RunFolder.create`. */
export interface CreateRunFolderOptions {
  /** Make `checkpoints/` (default true); an eval has none. */
  checkpoints?: boolean;
  /**
   * Makes a folder and its parents, throwing when it cannot (the runner's turns that into a usage
   * error naming `--out`). Default: `mkdirSync(path, { recursive: true })`.
   */
  makeFolder?: (path: string) => void;
}

/** The events whose metrics go to metrics.jsonl, and the row kind of each. */
const METRICS_KIND: Record<'update-end' | 'eval-end' | 'rollout-end', MetricsRow['kind']> = { 'update-end': 'train', 'eval-end': 'eval', 'rollout-end': 'rollout' };

/**
 * The metrics.jsonl row of an `update-end`, `eval-end` or `rollout-end` event (its kind, step,
 * time and metrics); undefined for other events. Every writer of metrics (the run folder,
 * TensorBoard files) takes its rows from here.
 */
export function metricsRowOf(event: RunEvent): MetricsRow | undefined {
  if (event.type !== 'update-end' && event.type !== 'eval-end' && event.type !== 'rollout-end') return undefined;
  return { kind: METRICS_KIND[event.type], step: event.step, time: event.time, ...event.metrics };
}

/**
 * A run's folder: `config.yaml`, append-only `events.jsonl` and `metrics.jsonl`, `summary.json`,
 * `checkpoints/<step>/` (file names: `RUN_FILES`). Lines are appended whole and files replaced by
 * rename, so a crash never leaves a torn line or half a file.
 */
export class RunFolder {
  readonly path: string;

  protected constructor(path: string) {
    this.path = path;
  }

  /** An existing run folder (for `saccade plot`, `watch`, resume); an error if it has no events file. */
  static open(path: string): RunFolder {
    if (!existsSync(join(path, RUN_FILES.events))) throw new Error(`${path} is not a run folder: it has no ${RUN_FILES.events}.`);
    return new RunFolder(path);
  }

  /** Creates `<outputFolder>/<name>`; a name already taken gets a `-2`, `-3`… suffix. */
  static create(outputFolder: string, name: string, options: CreateRunFolderOptions = {}): RunFolder {
    const makeFolder = options.makeFolder ?? ((path: string) => mkdirSync(path, { recursive: true }));
    makeFolder(outputFolder);
    let path = join(outputFolder, name);
    for (let suffix = 2; existsSync(path); suffix++) path = join(outputFolder, `${name}-${suffix}`);
    makeFolder(options.checkpoints === false ? path : join(path, RUN_FILES.checkpoints));
    return new RunFolder(path);
  }

  /** Whether `path` holds a run folder (an events file). */
  static isRunFolder(path: string): boolean {
    return existsSync(join(path, RUN_FILES.events));
  }

  /** The rows of metrics.jsonl; a torn last line (a crash mid-write) is skipped. */
  readMetrics(): MetricsRow[] {
    return readJsonLines<MetricsRow>(join(this.path, RUN_FILES.metrics));
  }

  /** The events of events.jsonl; a torn last line is skipped. */
  readEvents(): RunEvent[] {
    return readJsonLines<RunEvent>(join(this.path, RUN_FILES.events));
  }

  /**
   * Cuts a torn last line (a process killed mid-append) off events.jsonl and metrics.jsonl, so
   * that a resumed run's first line does not land on the end of half a line.
   */
  cutTornLines(): void {
    for (const file of this.appendedFiles()) {
      const text = readFileSync(file, 'utf8');
      const end = text.lastIndexOf('\n') + 1;
      if (end < text.length) writeFileAtomic(file, text.slice(0, end));
    }
  }

  /** `<run>/checkpoints`. */
  get checkpointsPath(): string {
    return join(this.path, RUN_FILES.checkpoints);
  }

  /** `<run>/config.yaml`. */
  get configPath(): string {
    return join(this.path, RUN_FILES.config);
  }

  /** `<run>/trajectories/<name>.jsonl`. */
  trajectoriesPath(name: string): string {
    return join(this.path, RUN_FILES.trajectories, `${name}.jsonl`);
  }

  /** Replaces config.yaml with `config` as YAML. */
  writeConfig(config: unknown): void {
    writeFileAtomic(this.configPath, toYaml(config));
  }

  /** Appends the event to events.jsonl, and its metrics to metrics.jsonl for updates, evals and rollouts. */
  appendEvent(event: RunEvent): void {
    appendFileSync(join(this.path, RUN_FILES.events), `${JSON.stringify(event)}\n`);
    const row = metricsRowOf(event);
    if (row !== undefined) appendFileSync(join(this.path, RUN_FILES.metrics), `${JSON.stringify(row)}\n`);
  }

  /**
   * The newest checkpoint that finished writing (checkpoints are renamed into place whole), with
   * the trainer's metadata; undefined when there is none.
   */
  lastCheckpoint(): (CheckpointEntry & { metadata: Record<string, unknown> }) | undefined {
    return lastCheckpoint(this.path);
  }

  /**
   * Drops what a killed run wrote after `step` (its checkpoint) from events.jsonl and metrics.jsonl,
   * so that a resumed run appends those steps once. Each file is replaced whole (atomically).
   */
  truncateAfter(step: number): void {
    this.removeTemporaries();
    for (const file of this.appendedFiles()) {
      const kept = readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => {
          if (line.trim() === '') return false;
          try {
            const record = JSON.parse(line) as { step?: unknown; type?: unknown };
            // A run that ended (cancelled or failed) is going on again: its run-end goes too.
            if (record.type === 'run-end') return false;
            return typeof record.step !== 'number' || record.step <= step;
          } catch {
            return false; // a torn last line
          }
        });
      writeFileAtomic(file, kept.length > 0 ? `${kept.join('\n')}\n` : '');
    }
  }

  /**
   * Removes what a killed process left half-written: checkpoint folders it was still filling
   * (`checkpoints/.<step>.tmp-…`) and temporary files of atomic writes (`*.tmp`, images included),
   * anywhere in the run folder. Returns the paths removed.
   */
  removeTemporaries(): string[] {
    const removed: string[] = [];
    const visit = (folder: string): void => {
      for (const entry of readdirSync(folder, { withFileTypes: true })) {
        const path = join(folder, entry.name);
        const temporary = entry.isDirectory() ? /^\..+\.tmp-\d+-\d+$/.test(entry.name) : entry.name.endsWith('.tmp');
        if (temporary) {
          rmSync(path, { recursive: true, force: true });
          removed.push(path);
        } else if (entry.isDirectory()) visit(path);
      }
    };
    visit(this.path);
    return removed;
  }

  /** Replaces summary.json with `summary`. */
  writeSummary(summary: unknown): void {
    writeFileAtomic(join(this.path, RUN_FILES.summary), `${JSON.stringify(summary, null, 2)}\n`);
  }

  private appendedFiles(): string[] {
    return [RUN_FILES.events, RUN_FILES.metrics].map((name) => join(this.path, name)).filter((file) => existsSync(file));
  }
}
