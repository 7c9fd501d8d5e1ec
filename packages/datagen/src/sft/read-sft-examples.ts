import { realpathSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { GroundingFileError } from '../errors/grounding-file-error';
import { readDatasetColumns } from './dataset-info';
import { readJsonRecords } from './json-records';
import { toSftExample, type SftExample } from './sft-layouts';

/** What to do with a record that cannot be read. */
export interface ReadSftExamplesOptions {
  /** Skip such records (each passed to `onInvalid`) instead of throwing on the first. */
  skipInvalid?: boolean;
  /** Told of each skipped record. */
  onInvalid?: (error: GroundingFileError) => void;
}

/**
 * Reads an SFT file in any layout Saccade knows (JSONL or a JSON array; see {@link SftLayout}),
 * each record recognised by its keys or by the `dataset_info.json` entry that names the file.
 * Throws `GroundingFileError` naming the file, line and field of the first bad record, or with
 * `skipInvalid` skips it and counts it. A file that cannot be read at all always throws.
 */
export async function readSftExamples(file: string, options: ReadSftExamplesOptions = {}): Promise<{ examples: SftExample[]; skipped: number }> {
  const columns = readDatasetColumns(resolve(file));
  let folder: string;
  try {
    folder = realpathSync(dirname(resolve(file)));
  } catch (error) {
    throw new GroundingFileError({ file, field: '(file)', expected: 'a readable JSON or JSONL SFT file', received: (error as Error).message, cause: error });
  }
  const examples: SftExample[] = [];
  let skipped = 0;
  for await (const record of readJsonRecords(file)) {
    try {
      if ('problem' in record) throw record.problem;
      examples.push(toSftExample(record.value, { file, line: record.line, folder, ...(columns === undefined ? {} : { columns }) }));
    } catch (error) {
      if (!GroundingFileError.isInstance(error) || options.skipInvalid !== true) throw error;
      skipped++;
      options.onInvalid?.(error);
    }
  }
  return { examples, skipped };
}
