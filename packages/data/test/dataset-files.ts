import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { encodePng } from '@saccade/image';

/** A solid-colour PNG, as file bytes. */
export async function solidPng(width: number, height: number, rgb: [number, number, number] = [200, 30, 30]): Promise<Uint8Array> {
  const data = new Uint8Array(width * height * 3);
  for (let index = 0; index < width * height; index++) data.set(rgb, index * 3);
  return (await encodePng({ data, width, height, channels: 3 })).data;
}

/** A scratch folder that writes files in a dataset's layout (folders made on the way). */
export class Scratch {
  readonly root = mkdtempSync(join(tmpdir(), 'saccade-data-'));

  path(...parts: string[]): string {
    return join(this.root, ...parts);
  }

  write(relative: string, content: string | Uint8Array): string {
    const file = this.path(relative);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
    return file;
  }

  json(relative: string, value: unknown): string {
    return this.write(relative, JSON.stringify(value, null, 2));
  }

  jsonl(relative: string, values: unknown[]): string {
    return this.write(relative, values.map((value) => (typeof value === 'string' ? value : JSON.stringify(value))).join('\n') + '\n');
  }

  async png(relative: string, width = 4, height = 3): Promise<string> {
    return this.write(relative, await solidPng(width, height));
  }

  /** The tasks of a task file, parsed. */
  tasks(relative: string): unknown[] {
    return readFileSync(this.path(relative), 'utf8').trim().split('\n').filter((line) => line.length > 0).map((line) => JSON.parse(line) as unknown);
  }

  remove(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

const text = (name: string, repetition: 'REQUIRED' | 'OPTIONAL' = 'OPTIONAL') => ({ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: repetition });
/** A Hugging Face `Image` column: struct<bytes: binary, path: string>. */
export const imageColumn = (name: string) => [{ name, repetition_type: 'OPTIONAL', num_children: 2 }, { name: 'bytes', type: 'BYTE_ARRAY', repetition_type: 'OPTIONAL' }, text('path')];
/** A Hugging Face `Sequence` column: list<element>. */
export const listColumn = (name: string, element: object[]) => [{ name, repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 }, { name: 'list', repetition_type: 'REPEATED', num_children: 1 }, ...element];
export const stringColumn = (name: string) => [text(name)];

/** Writes a Parquet file as `datasets` does: the given columns (schema elements after the root) and their data. */
export async function writeParquet(file: string, columns: { schema: object[]; name: string; data: unknown[] }[]): Promise<void> {
  const { parquetWriteFile } = await import('hyparquet-writer');
  mkdirSync(dirname(file), { recursive: true });
  parquetWriteFile({ filename: file, schema: [{ name: 'root', num_children: columns.length }, ...columns.flatMap((column) => column.schema)] as never, columnData: columns.map(({ name, data }) => ({ name, data })) as never });
}
