import { DatasetFormatError, describeValue } from '../dataset-format-error';
import { readJsonDocument } from './read-json-document';
import { arrayRecords, keyedRecords, type SourceRecord } from './source-record';

/**
 * The records of a JSON document: the array itself, the array under `key` (`{"questions": […]}`),
 * or, with `keyed`, the values of an object keyed by id (each gets its key as `__key`).
 */
export async function documentRecords(file: string, { key, keyed = false }: { key?: string; keyed?: boolean } = {}): Promise<Iterable<SourceRecord>> {
  const document = await readJsonDocument(file);
  const items = key === undefined ? document : (document as Record<string, unknown> | null)?.[key];
  if (keyed) {
    if (typeof items !== 'object' || items === null || Array.isArray(items)) {
      throw new DatasetFormatError({ location: { file }, field: key ?? '(document)', expected: 'an object of records keyed by id', received: describeValue(Array.isArray(items) ? '[array]' : items) });
    }
    return keyedRecords(file, items as Record<string, unknown>);
  }
  if (!Array.isArray(items)) {
    const received = key !== undefined && typeof document === 'object' && document !== null && !Array.isArray(document) && !(key in document) ? `an object with fields ${Object.keys(document).slice(0, 8).join(', ')}` : describeValue(Array.isArray(items) ? '[array]' : items);
    throw new DatasetFormatError({ location: { file }, field: key ?? '(document)', expected: 'an array of records', received });
  }
  return arrayRecords(file, items);
}
