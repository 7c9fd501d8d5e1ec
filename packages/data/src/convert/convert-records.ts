import type { ConvertItem, FilteredOut, TaskDraft } from '../dataset-adapter';
import { DatasetFormatError } from '../dataset-format-error';
import { RecordFields } from '../record-fields';
import type { SourceRecord } from '../readers/source-record';

/** What an adapter's map makes of one record. */
export type MapResult = TaskDraft | TaskDraft[] | FilteredOut;

/**
 * Maps source records to tasks with one adapter's `map`: a record the map rejects (it throws a
 * `DatasetFormatError`) becomes an error item, so the converter can stop or skip it and count it.
 */
export async function* convertRecords(
  records: Iterable<SourceRecord> | AsyncIterable<SourceRecord>,
  map: (fields: RecordFields) => MapResult | Promise<MapResult>,
): AsyncGenerator<ConvertItem> {
  for await (const record of records) {
    if ('error' in record) {
      yield record;
      continue;
    }
    try {
      const result = await map(new RecordFields(record.value, record.location));
      if ('filtered' in result) yield { location: record.location, filtered: result.filtered };
      else yield { location: record.location, tasks: Array.isArray(result) ? result : [result] };
    } catch (error) {
      if (!DatasetFormatError.isInstance(error)) throw error;
      yield { location: record.location, error };
    }
  }
}
