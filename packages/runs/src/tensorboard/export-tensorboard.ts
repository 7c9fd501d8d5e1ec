import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { RunFolder } from '../run-folder';
import { TENSORBOARD_FILE_PREFIX, TensorBoardWriter, tensorBoardScalars } from './tensorboard-writer';

/** What `exportTensorBoard` wrote. */
export interface TensorBoardExport {
  /** The event file. */
  path: string;
  /** metrics.jsonl rows written (one event each). */
  rows: number;
  /** Scalar values written. */
  scalars: number;
}

/**
 * Writes a run folder's metrics.jsonl (training updates, rollouts, held-out evaluations, an eval's
 * results) into `folder` as one TensorBoard event file, step for step. Event files already in
 * `folder` are removed first, so that exporting again does not show every point twice.
 */
export function exportTensorBoard(runFolder: string, folder: string): TensorBoardExport {
  const rows = RunFolder.open(runFolder).readMetrics();
  try {
    for (const entry of readdirSync(folder)) if (entry.startsWith(TENSORBOARD_FILE_PREFIX)) rmSync(join(folder, entry));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const first = rows.find((row) => typeof row['time'] === 'string');
  const start = first === undefined ? Number.NaN : Date.parse(first['time'] as string);
  const writer = TensorBoardWriter.open(folder, Number.isNaN(start) ? Date.now() / 1000 : start / 1000);
  let scalars = 0;
  try {
    for (const row of rows) {
      writer.writeMetricsRow(row);
      scalars += Object.keys(tensorBoardScalars(row)).length;
    }
  } finally {
    writer.close();
  }
  return { path: writer.path, rows: rows.length, scalars };
}
