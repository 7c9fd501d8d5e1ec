import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunEvent } from '@saccade/spec';
import { stringify as toYaml } from 'yaml';
import type { MetricsRow } from './plots/write-run-plots';
import { ensureOutputFolder } from './output-folder';
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

  /**
   * Creates `<outputFolder>/<name>`; a name already taken gets a `-2`, `-3`… suffix. An eval has
   * no checkpoints: `{ checkpoints: false }` leaves that folder out.
   */
  static create(outputFolder: string, name: string, { checkpoints = true }: { checkpoints?: boolean } = {}): RunFolder {
    // A folder that cannot be made (under a file, read-only, /sys) is the user's to fix: a UsageError.
    ensureOutputFolder(outputFolder, '--out');
    let path = join(outputFolder, name);
    for (let suffix = 2; existsSync(path); suffix++) path = join(outputFolder, `${name}-${suffix}`);
    ensureOutputFolder(checkpoints ? join(path, 'checkpoints') : path, '--out');
    return new RunFolder(path);
  }

  /**
   * Cuts a torn last line (a process killed mid-append) off events.jsonl and metrics.jsonl, so
   * that a resumed run's first line does not land on the end of half a line.
   */
  cutTornLines(): void {
    for (const name of ['events.jsonl', 'metrics.jsonl']) {
      const file = join(this.path, name);
      if (!existsSync(file)) continue;
      const text = readFileSync(file, 'utf8');
      const end = text.lastIndexOf('\n') + 1;
      if (end < text.length) writeFileAtomic(file, text.slice(0, end));
    }
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
    if (event.type === 'update-end' || event.type === 'eval-end' || event.type === 'rollout-end') {
      const kind = event.type === 'update-end' ? 'train' : event.type === 'eval-end' ? 'eval' : 'rollout';
      appendFileSync(join(this.path, 'metrics.jsonl'), `${JSON.stringify({ kind, step: event.step, time: event.time, ...event.metrics })}\n`);
    }
  }

  /**
   * The newest checkpoint that finished writing (checkpoints are renamed into place whole), with
   * the trainer's metadata; undefined when there is none.
   */
  lastCheckpoint(): { step: number; path: string; metadata: Record<string, unknown> } | undefined {
    if (!existsSync(this.checkpointsPath)) return undefined;
    const steps = readdirSync(this.checkpointsPath)
      .filter((name) => /^\d+$/.test(name) && existsSync(join(this.checkpointsPath, name, 'manifest.json')))
      .map(Number)
      .sort((a, b) => b - a);
    const step = steps[0];
    if (step === undefined) return undefined;
    const path = join(this.checkpointsPath, String(step));
    const manifest = JSON.parse(readFileSync(join(path, 'manifest.json'), 'utf8')) as { metadata?: Record<string, unknown> };
    return { step, path, metadata: manifest.metadata ?? {} };
  }

  /**
   * Drops what a killed run wrote after `step` (its checkpoint) from events.jsonl and metrics.jsonl,
   * so that a resumed run appends those steps once. Each file is replaced whole (atomically).
   */
  truncateAfter(step: number): void {
    for (const name of ['events.jsonl', 'metrics.jsonl']) {
      const file = join(this.path, name);
      if (!existsSync(file)) continue;
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

  writeSummary(summary: unknown): void {
    writeFileAtomic(join(this.path, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  }
}
