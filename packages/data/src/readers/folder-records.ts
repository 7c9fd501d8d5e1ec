import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DatasetFormatError } from '../dataset-format-error';
import type { SourceRecord } from './source-record';

/** Names in natural order, so `2` comes before `10`. */
export function naturalSort(names: string[]): string[] {
  return names.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
}

async function readRecord(file: string, folder: string): Promise<SourceRecord> {
  const location = { file };
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    return { location, error: new DatasetFormatError({ location, field: '(file)', expected: 'a readable JSON file', received: (error as Error).message, cause: error }) };
  }
  try {
    return { location, value: { ...(JSON.parse(text.replace(/^\uFEFF/, '')) as object), __folder: folder } };
  } catch (error) {
    return { location, error: new DatasetFormatError({ location, field: '(file)', expected: 'a JSON object', received: `text that is not JSON (${(error as Error).message})`, cause: error }) };
  }
}

async function listFolder(folder: string): Promise<string[]> {
  try {
    return naturalSort(await readdir(folder));
  } catch (error) {
    throw new DatasetFormatError({ location: { file: folder }, field: '(folder)', expected: 'a readable folder', received: (error as Error).message, cause: error });
  }
}

/**
 * One record per problem folder (`<root>/<id>/data.json`, as Geometry3K and IconQA ship them),
 * in natural order; each value gets its folder as `__folder` and its folder name as `__key`.
 */
export async function* problemFolderRecords(root: string, fileName: string): AsyncGenerator<SourceRecord> {
  for (const name of await listFolder(root)) {
    const folder = join(root, name);
    if (!(await stat(folder)).isDirectory()) continue;
    const item = await readRecord(join(folder, fileName), folder);
    yield 'value' in item ? { ...item, value: { ...(item.value as object), __key: name } } : item;
  }
}

/** One record per `*.json` file of a folder (GeoQA's `json/`, AI2D's `questions/`), in natural order, with the file's stem as `__key`. */
export async function* jsonFileRecords(folder: string): AsyncGenerator<SourceRecord> {
  for (const name of await listFolder(folder)) {
    if (!name.endsWith('.json')) continue;
    const item = await readRecord(join(folder, name), folder);
    yield 'value' in item ? { ...item, value: { ...(item.value as object), __key: name.slice(0, -'.json'.length) } } : item;
  }
}
