import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunEvent } from '@saccade/spec';
import { stringify as toYaml } from 'yaml';
import type { MetricsRow } from './plots/write-run-plots';
import { writeFileAtomic } from './write-file-atomic';

/**
 * A run's folder: `config.yaml`, append-only `events.jsonl` and `metrics.jsonl`, `summary.json`,
 * `checkpoints/<step>/`. Lines are appended whole and files replaced by rename, so a crash never
 * leaves a torn line or half a file.
 */
export class RunFolder {
  readonly path: string;

  private constructor(path: string) {
    this.path = path;
  }

  /** An existing run folder (for `saccade plot`, `watch`, resume). */
  static open(path: string): RunFolder {
    if (!existsSync(join(path, 'events.jsonl'))) throw new Error(`${path} is not a run folder: it has no events.jsonl.`);
    return new RunFolder(path);
  }

  /** The rows of metrics.jsonl; a torn last line (a crash mid-write) is skipped. */
  readMetrics(): MetricsRow[] {
    const file = join(this.path, 'metrics.jsonl');
    if (!existsSync(file)) return [];
    return readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line) => {
        if (line.trim() === '') return [];
        try {
          return [JSON.parse(line) as MetricsRow];
        } catch {
          return [];
        }
      });
  }

  /** Creates `<outputFolder>/<name>`; a name already taken gets a `-2`, `-3`… suffix. */
  static create(outputFolder: string, name: string): RunFolder {
    mkdirSync(outputFolder, { recursive: true });
    let path = join(outputFolder, name);
    for (let suffix = 2; existsSync(path); suffix++) path = join(outputFolder, `${name}-${suffix}`);
    mkdirSync(join(path, 'checkpoints'), { recursive: true });
    return new RunFolder(path);
  }

  get checkpointsPath(): string {
    return join(this.path, 'checkpoints');
  }

  writeConfig(config: unknown): void {
    writeFileAtomic(join(this.path, 'config.yaml'), toYaml(config));
  }

  /** Appends the event to events.jsonl, and its metrics to metrics.jsonl for updates and evals. */
  appendEvent(event: RunEvent): void {
    appendFileSync(join(this.path, 'events.jsonl'), `${JSON.stringify(event)}\n`);
    if (event.type === 'update-end' || event.type === 'eval-end') {
      const kind = event.type === 'update-end' ? 'train' : 'eval';
      appendFileSync(join(this.path, 'metrics.jsonl'), `${JSON.stringify({ kind, step: event.step, time: event.time, ...event.metrics })}\n`);
    }
  }

  writeSummary(summary: unknown): void {
    writeFileAtomic(join(this.path, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  }
}
