import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DatasetFormatError } from '../dataset-format-error';
import { naturalSort } from './folder-records';
import { readParquetRecords } from './read-parquet-records';
import type { SourceRecord } from './source-record';

/** Every `*.parquet` file under a folder (sorted, recursively), or the file itself. */
async function parquetFiles(input: string, accept: (name: string) => boolean): Promise<string[]> {
  let info;
  try {
    info = await stat(input);
  } catch (error) {
    throw new DatasetFormatError({ location: { file: input }, field: '(file)', expected: 'a Parquet file or a folder of them', received: (error as Error).message, cause: error });
  }
  if (info.isFile()) return [input];
  const files: string[] = [];
  for (const name of naturalSort(await readdir(input))) {
    const path = join(input, name);
    if ((await stat(path)).isDirectory()) files.push(...(await parquetFiles(path, accept)));
    else if (name.endsWith('.parquet') && accept(name)) files.push(path);
  }
  return files;
}

/**
 * The rows of a Parquet file, or of every Parquet file under a folder whose name `accept`s
 * (a Hugging Face dataset's `<config>/<split>-00000-of-00001.parquet`), in order.
 */
export async function* parquetInputRecords(input: string, accept: (name: string) => boolean = () => true): AsyncGenerator<SourceRecord> {
  const files = await parquetFiles(input, accept);
  if (files.length === 0) throw new DatasetFormatError({ location: { file: input }, field: '(folder)', expected: 'Parquet files of the split', received: 'none' });
  for (const file of files) yield* readParquetRecords(file);
}
