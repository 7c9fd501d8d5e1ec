import { DatasetFormatError } from '../dataset-format-error';
import type { SourceRecord } from './source-record';

/**
 * Streams the rows of a Parquet file (as Hugging Face datasets publish them) one row group at a
 * time, as plain objects; image columns come as `{bytes, path}`.
 */
export async function* readParquetRecords(file: string): AsyncGenerator<SourceRecord> {
  const { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } = await import('hyparquet');
  let buffer: Awaited<ReturnType<typeof asyncBufferFromFile>>;
  let metadata: Awaited<ReturnType<typeof parquetMetadataAsync>>;
  try {
    buffer = await asyncBufferFromFile(file);
    metadata = await parquetMetadataAsync(buffer);
  } catch (error) {
    throw new DatasetFormatError({ location: { file }, field: '(file)', expected: 'a readable Parquet file', received: (error as Error).message, cause: error });
  }
  let rowStart = 0;
  for (const group of metadata.row_groups) {
    const rowEnd = rowStart + Number(group.num_rows);
    // utf8 off: binary columns (image bytes) stay bytes; columns annotated as strings still decode.
    const rows = await parquetReadObjects({ file: buffer, metadata, rowStart, rowEnd, utf8: false });
    for (const [offset, value] of rows.entries()) yield { location: { file, record: rowStart + offset + 1 }, value };
    rowStart = rowEnd;
  }
}
