import { FileFormatError, SaccadeError } from '@saccade/spec';

const name = 'Saccade_DatasetFormatError';
const marker = 'saccade.error.dataset-format';
const symbol = Symbol.for(marker);

/** Where a record of a dataset file sits: a line of a JSONL file, or the n-th record of a JSON document or Parquet file. */
export interface SourceLocation {
  /** The file the record came from (or the folder of a one-folder-per-problem layout). */
  file: string;
  /** 1-based line of a JSONL file. */
  line?: number;
  /** 1-based position of the record in a JSON document, Parquet file or folder listing. */
  record?: number;
}

/** `file:line` for JSONL, `file record n` for documents. */
export function describeLocation({ file, line, record }: SourceLocation): string {
  if (line !== undefined) return `${file}:${line}`;
  if (record !== undefined) return `${file} record ${record}`;
  return file;
}

/**
 * A dataset file does not hold what its published layout says, or names an image that is not
 * there. The message names the file, the line (or record), the field, what was expected and
 * what came, e.g.
 * `ChartQA Dataset/test/test_human.json record 3: field "label": expected a string or a number (the answer), received nothing (the field is missing)`.
 */
export class DatasetFormatError extends FileFormatError {
  private readonly [symbol] = true;

  /** 1-based position of the record in a JSON document, Parquet file or folder listing. */
  readonly record: number | undefined;

  constructor({ location, field, expected, received, cause }: { location: SourceLocation; field: string; expected: string; received: string; cause?: unknown }) {
    super({ name, file: location.file, ...(location.line === undefined ? {} : { line: location.line }), where: describeLocation(location), field, expected, received, cause });
    this.record = location.record;
  }

  static override isInstance(error: unknown): error is DatasetFormatError {
    return SaccadeError.hasMarker(error, marker);
  }
}

/** A short description of a value for messages. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing (the field is missing)';
  let text: string;
  try {
    text = JSON.stringify(value, (_key, item: unknown) => (item instanceof Uint8Array ? `<${item.byteLength} bytes>` : typeof item === 'bigint' ? Number(item) : item)) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
