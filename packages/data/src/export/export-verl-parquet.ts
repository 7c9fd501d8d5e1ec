import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { readTaskFile, TaskFileError } from '@saccade/core';
import { sniffMediaType } from '@saccade/image';
import { verlRow, type VerlRow, type VerlRowOptions } from './verl-row';

const text = (name: string, repetition: 'REQUIRED' | 'OPTIONAL' = 'REQUIRED') => ({ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: repetition }) as const;

/** verl's columns, with the nested types `datasets` writes: list<struct<role, content>>, list<struct<bytes, path>>, structs. */
const SCHEMA = [
  { name: 'root', num_children: 6 },
  text('data_source'),
  { name: 'prompt', repetition_type: 'REQUIRED', converted_type: 'LIST', num_children: 1 },
  { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
  { name: 'element', repetition_type: 'REQUIRED', num_children: 2 },
  text('role'),
  text('content'),
  { name: 'images', repetition_type: 'REQUIRED', converted_type: 'LIST', num_children: 1 },
  { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
  { name: 'element', repetition_type: 'REQUIRED', num_children: 2 },
  { name: 'bytes', type: 'BYTE_ARRAY', repetition_type: 'OPTIONAL' },
  text('path', 'OPTIONAL'),
  text('ability'),
  { name: 'reward_model', repetition_type: 'REQUIRED', num_children: 2 },
  text('style'),
  text('ground_truth'),
  { name: 'extra_info', repetition_type: 'REQUIRED', num_children: 7 },
  text('split'),
  { name: 'index', type: 'INT64', repetition_type: 'REQUIRED' },
  text('id'),
  text('question'),
  text('answer'),
  text('answer_type'),
  text('target'),
];

/**
 * The task file exportVerlParquet reads, the Parquet file it writes, its row-group size, and
 * whether invalid tasks are skipped; plus how each row is written.
 */
export interface ExportVerlParquetOptions extends VerlRowOptions {
  /** The Saccade task file to read. */
  input: string;
  /** The Parquet file to write. */
  output: string;
  /** Rows per row group (default 256): the images of one group are in memory at a time. */
  rowGroupSize?: number;
  /** Skip invalid task lines and tasks whose images are missing (each goes to `onInvalid`) instead of stopping. */
  skipInvalid?: boolean;
  onInvalid?: (error: TaskFileError) => void;
}

/** What exportVerlParquet did: the files, and how many tasks it read, wrote and skipped. */
export interface ExportSummary {
  input: string;
  output: string;
  read: number;
  written: number;
  skipped: number;
}

/**
 * Exports a task file to verl's RL Parquet layout (see `VerlRow`), streaming: tasks are read one
 * line at a time and written a row group at a time, images embedded as bytes, through a
 * temporary file renamed at the end.
 */
export async function exportVerlParquet(options: ExportVerlParquetOptions): Promise<ExportSummary> {
  const input = resolve(options.input);
  const output = resolve(options.output);
  const groupSize = options.rowGroupSize ?? 256;
  const summary: ExportSummary = { input, output, read: 0, written: 0, skipped: 0 };
  const { ParquetWriter, fileWriter } = await import('hyparquet-writer');
  await mkdir(dirname(output), { recursive: true });
  const temporary = `${output}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const writer = new ParquetWriter({ writer: fileWriter(temporary), schema: SCHEMA as never });
  let rows: VerlRow[] = [];
  const flush = (): void => {
    if (rows.length === 0) return;
    const column = <K extends keyof VerlRow>(name: K) => ({ name, data: rows.map((row) => row[name]) });
    const extra = rows.map((row) => ({ ...row.extra_info, index: BigInt(row.extra_info.index) }));
    writer.write({
      columnData: [column('data_source'), column('prompt'), column('images'), column('ability'), column('reward_model'), { name: 'extra_info', data: extra }] as never,
      rowGroupSize: rows.length,
    });
    rows = [];
  };
  try {
    const tasks = readTaskFile(input, {
      checkImages: true,
      skipInvalid: options.skipInvalid,
      onInvalid: (error) => {
        summary.read++;
        summary.skipped++;
        options.onInvalid?.(error);
      },
    });
    for await (const task of tasks) {
      summary.read++;
      const images = await Promise.all(task.images.map(async (image) => ({ bytes: new Uint8Array(await readFile(image as string)), path: image as string })));
      // Only image bytes go into the Parquet file: a task naming /etc/passwd is refused, not embedded.
      const notImage = images.findIndex((image) => sniffMediaType(image.bytes) === undefined);
      if (notImage !== -1) {
        const error = new TaskFileError({ file: input, field: `images[${notImage}]`, expected: 'a PNG, JPEG or WebP image', received: `${images[notImage]!.path}, whose bytes are not one (task ${JSON.stringify(task.id)})` });
        if (options.skipInvalid !== true) throw error;
        summary.skipped++;
        options.onInvalid?.(error);
        continue;
      }
      rows.push(verlRow(task, images, summary.written, options));
      summary.written++;
      if (rows.length >= groupSize) flush();
    }
    flush();
    writer.finish();
    // No row, no file (an existing output is kept).
    if (summary.written === 0) await rm(temporary, { force: true });
    else await rename(temporary, output);
    return summary;
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
