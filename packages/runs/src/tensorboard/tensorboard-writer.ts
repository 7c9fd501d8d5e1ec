import { closeSync, fsyncSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { RunEvent } from '@saccade/spec';
import { metricsRowOf, type MetricsRow } from '../run-folder';
import { encodeFileVersionEvent, encodeScalarsEvent } from './tensorboard-event';
import { encodeTfRecord } from './tf-record';

/** Files of one process are told apart by this counter (two writers in the same second). */
let fileCounter = 0;

/** TensorBoard finds event files by this part of their name. */
export const TENSORBOARD_FILE_PREFIX = 'events.out.tfevents.';

/**
 * The TensorBoard scalars of a metrics.jsonl row: each finite number as `<kind>/<metric>`
 * (`train/loss`, `eval/success`, `rollout/reward/format`); `kind`, `step` and `time` are not
 * metrics, and null (a NaN written as JSON) or text is left out.
 */
export function tensorBoardScalars(row: MetricsRow): Record<string, number> {
  const scalars: Record<string, number> = {};
  for (const [name, value] of Object.entries(row)) {
    if (name === 'kind' || name === 'step' || name === 'time') continue;
    if (typeof value === 'number' && Number.isFinite(value)) scalars[`${row.kind}/${name}`] = value;
  }
  return scalars;
}

/** A row's wall time in seconds: its `time` (ISO), else now. */
function wallTimeOf(row: MetricsRow): number {
  const time = typeof row['time'] === 'string' ? Date.parse(row['time']) : Number.NaN;
  return (Number.isNaN(time) ? Date.now() : time) / 1000;
}

/**
 * Writes one TensorBoard event file (TFRecords of `Event` protos, `brain.Event:2` first) into a
 * folder that TensorBoard shows as one run, e.g. `tensorboard --logdir <parent>`; `wandb sync
 * --sync-tensorboard` reads the same files. Each event is written whole with one write, so a
 * reader following the file as it grows sees complete records.
 */
export class TensorBoardWriter {
  /** The event file. */
  readonly path: string;
  #descriptor: number | undefined;

  private constructor(path: string, descriptor: number) {
    this.path = path;
    this.#descriptor = descriptor;
  }

  /** Creates `folder` (and its parents) and a new event file in it, named as TensorBoard's writers name theirs. */
  static open(folder: string, wallTime = Date.now() / 1000): TensorBoardWriter {
    mkdirSync(folder, { recursive: true });
    const name = `${TENSORBOARD_FILE_PREFIX}${Math.floor(wallTime)}.${hostname()}.${process.pid}.${fileCounter++}`;
    const path = join(folder, name);
    const writer = new TensorBoardWriter(path, openSync(path, 'wx'));
    writer.#write(encodeFileVersionEvent(wallTime));
    return writer;
  }

  /** One event of scalars at `step` (no event when `scalars` is empty). */
  writeScalars(step: number, scalars: Readonly<Record<string, number>>, wallTime = Date.now() / 1000): void {
    if (Object.keys(scalars).length === 0) return;
    this.#write(encodeScalarsEvent(wallTime, step, scalars));
  }

  /** A metrics.jsonl row as scalars at its step and time (see `tensorBoardScalars`). */
  writeMetricsRow(row: MetricsRow): void {
    this.writeScalars(row.step, tensorBoardScalars(row), wallTimeOf(row));
  }

  /** The metrics of a run event (`update-end`, `eval-end`, `rollout-end`), as the run folder's metrics.jsonl has them; other events write nothing. */
  writeRunEvent(event: RunEvent): void {
    const row = metricsRowOf(event);
    if (row !== undefined) this.writeMetricsRow(row);
  }

  /** Flushes the file to disk and closes it; writing after this throws. */
  close(): void {
    if (this.#descriptor === undefined) return;
    fsyncSync(this.#descriptor);
    closeSync(this.#descriptor);
    this.#descriptor = undefined;
  }

  #write(event: Uint8Array): void {
    if (this.#descriptor === undefined) throw new Error(`The TensorBoard event file ${this.path} is closed.`);
    writeSync(this.#descriptor, encodeTfRecord(event));
  }
}
