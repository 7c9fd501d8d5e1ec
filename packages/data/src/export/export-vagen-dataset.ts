import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { InvalidArgumentError } from '@saccade/spec';
import { vagenSeeds } from './python-random';

/** One entry of VAGEN's env-config YAML: `{env_name, env_config, train_size, test_size}`. */
export interface VagenEnvEntry {
  env_name: string;
  env_config: Record<string, unknown>;
  train_size: number;
  test_size: number;
}

/** One row of VAGEN's dataset (what `vagen/env/create_dataset.py` writes). */
export interface VagenRow {
  data_source: string;
  prompt: { role: 'user'; content: '' }[];
  extra_info: { split: 'train' | 'test'; env_name: string; env_config: Record<string, unknown>; seed: number };
}

type Scalar = 'string' | 'int64' | 'double' | 'boolean';
type FieldType = Scalar | { list: Scalar };

const bad = (where: string, expected: string, value: unknown) => new InvalidArgumentError({ argument: where, expected, value });

/** Reads VAGEN's YAML (already parsed): a mapping of entries; sizes default to 100 as VAGEN's. */
export function readVagenEnvConfig(config: unknown): VagenEnvEntry[] {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) throw bad('env config', 'a mapping of {env_name, env_config, train_size, test_size} entries', config);
  return Object.entries(config).map(([key, entry]) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw bad(key, 'an entry {env_name, env_config, train_size, test_size}', entry);
    const { env_name, env_config = {}, train_size = 100, test_size = 100 } = entry as Record<string, unknown>;
    if (typeof env_name !== 'string' || env_name.length === 0) throw bad(`${key}.env_name`, 'a VAGEN env name or a Saccade env id', env_name);
    if (typeof env_config !== 'object' || env_config === null || Array.isArray(env_config)) throw bad(`${key}.env_config`, 'a mapping of config keys', env_config);
    for (const [name, size] of [['train_size', train_size], ['test_size', test_size]] as const) {
      if (!Number.isSafeInteger(size) || (size as number) < 0) throw bad(`${key}.${name}`, 'a whole number ≥ 0', size);
    }
    return { env_name, env_config: env_config as Record<string, unknown>, train_size: train_size as number, test_size: test_size as number };
  });
}

/**
 * The rows VAGEN's create_dataset writes for the YAML: per entry, `train_size` then `test_size`
 * seeds from its config's generate_seeds (`random.seed(0); random.sample(range(20000 + size), size)`,
 * BaseEnvConfig's; VAGEN's Sokoban config filters seeds with its own generator instead, which
 * Saccade's Sokoban needs not: every seed it takes is solvable), an empty user prompt (the env
 * service gives the prompts), and `extra_info {split, env_name, env_config, seed}`.
 */
export function vagenDatasetRows(entries: readonly VagenEnvEntry[]): { train: VagenRow[]; test: VagenRow[] } {
  const train: VagenRow[] = [];
  const test: VagenRow[] = [];
  for (const { env_name, env_config, train_size, test_size } of entries) {
    const row = (split: 'train' | 'test', seed: number): VagenRow => ({ data_source: env_name, prompt: [{ role: 'user', content: '' }], extra_info: { split, env_name, env_config, seed } });
    for (const seed of vagenSeeds(train_size)) train.push(row('train', seed));
    for (const seed of vagenSeeds(test_size)) test.push(row('test', seed));
  }
  return { train, test };
}

function typeOf(value: unknown, where: string): FieldType | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int64' : 'double';
  if (Array.isArray(value)) {
    const inner = [...new Set(value.map((item, index) => typeOf(item, `${where}[${index}]`)))];
    const scalar = inner.length === 2 && inner.includes('int64') && inner.includes('double') ? 'double' : inner[0];
    if ((inner.length === 1 || scalar === 'double') && typeof scalar === 'string') return { list: scalar };
    if (value.length === 0) return { list: 'string' };
  }
  throw bad(where, 'a string, number, boolean or a list of one of these (nested values cannot be written as VAGEN rows here)', value);
}

/** The env_config struct's fields: the union over the rows, each typed as pyarrow infers it. */
function envConfigFields(rows: readonly VagenRow[]): [string, FieldType][] {
  const fields = new Map<string, FieldType>();
  for (const row of rows) {
    for (const [key, value] of Object.entries(row.extra_info.env_config)) {
      const type = typeOf(value, `env_config.${key}`);
      if (type === undefined) continue;
      const known = fields.get(key);
      if (known === undefined || (known === 'int64' && type === 'double')) fields.set(key, type);
      else if (JSON.stringify(known) !== JSON.stringify(type) && !(known === 'double' && type === 'int64')) throw bad(`env_config.${key}`, `the same type in every entry (${JSON.stringify(known)})`, row.extra_info.env_config[key]);
    }
  }
  return [...fields];
}

const PARQUET: Record<Scalar, Record<string, string>> = {
  string: { type: 'BYTE_ARRAY', converted_type: 'UTF8' },
  int64: { type: 'INT64' },
  double: { type: 'DOUBLE' },
  boolean: { type: 'BOOLEAN' },
};

function convert(value: unknown, type: FieldType): unknown {
  if (value === null || value === undefined) return null;
  if (typeof type === 'object') return (value as unknown[]).map((item) => convert(item, type.list));
  return type === 'int64' ? BigInt(value as number) : value;
}

async function writeRows(rows: readonly VagenRow[], output: string): Promise<void> {
  const fields = envConfigFields(rows);
  if (fields.length === 0) throw bad('env_config', 'at least one key (Parquet cannot hold an empty struct, nor can VAGEN write one)', {});
  const schema: Record<string, unknown>[] = [
    { name: 'root', num_children: 3 },
    { name: 'data_source', ...PARQUET.string, repetition_type: 'OPTIONAL' },
    { name: 'prompt', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
    { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
    { name: 'element', repetition_type: 'OPTIONAL', num_children: 2 },
    { name: 'role', ...PARQUET.string, repetition_type: 'OPTIONAL' },
    { name: 'content', ...PARQUET.string, repetition_type: 'OPTIONAL' },
    { name: 'extra_info', repetition_type: 'OPTIONAL', num_children: 4 },
    { name: 'split', ...PARQUET.string, repetition_type: 'OPTIONAL' },
    { name: 'env_name', ...PARQUET.string, repetition_type: 'OPTIONAL' },
    { name: 'env_config', repetition_type: 'OPTIONAL', num_children: fields.length },
  ];
  for (const [name, type] of fields) {
    if (typeof type === 'object') {
      schema.push({ name, repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 }, { name: 'list', repetition_type: 'REPEATED', num_children: 1 }, { name: 'element', ...PARQUET[type.list], repetition_type: 'OPTIONAL' });
    } else schema.push({ name, ...PARQUET[type], repetition_type: 'OPTIONAL' });
  }
  schema.push({ name: 'seed', ...PARQUET.int64, repetition_type: 'OPTIONAL' });
  const { ParquetWriter, fileWriter } = await import('hyparquet-writer');
  await mkdir(dirname(output), { recursive: true });
  const temporary = `${output}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const writer = new ParquetWriter({ writer: fileWriter(temporary), schema: schema as never });
    writer.write({
      columnData: [
        { name: 'data_source', data: rows.map((row) => row.data_source) },
        { name: 'prompt', data: rows.map((row) => row.prompt.map(({ role, content }) => ({ role, content }))) },
        {
          name: 'extra_info',
          data: rows.map((row) => ({
            split: row.extra_info.split,
            env_name: row.extra_info.env_name,
            env_config: Object.fromEntries(fields.map(([name, type]) => [name, convert(row.extra_info.env_config[name], type)])),
            seed: BigInt(row.extra_info.seed),
          })),
        },
      ] as never,
      rowGroupSize: Math.max(1, rows.length),
    });
    writer.finish();
    await rename(temporary, output);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/**
 * VAGEN's env-config YAML (parsed) and the train and test Parquet files exportVagenDataset writes
 * for it.
 */
export interface ExportVagenDatasetOptions {
  /** VAGEN's env-config YAML, parsed. */
  config: unknown;
  train: string;
  test: string;
}

/**
 * `saccade data export vagen`: VAGEN's train and test Parquet files for its env-config YAML, with
 * the columns in the order and types `datasets.Dataset.from_list(...).to_parquet` gives them
 * (pyarrow keeps a struct's fields in the order of the first row's keys: prompt's {role, content},
 * extra_info's {split, env_name, env_config, seed}; ints as int64, floats as double). `env_name` may be any name the env service serves (a VAGEN name or a
 * Saccade env id). A split with no rows writes no file, as VAGEN's.
 */
export async function exportVagenDataset(options: ExportVagenDatasetOptions): Promise<{ train: number; test: number }> {
  const { train, test } = vagenDatasetRows(readVagenEnvConfig(options.config));
  if (train.length > 0) await writeRows(train, resolve(options.train));
  if (test.length > 0) await writeRows(test, resolve(options.test));
  return { train: train.length, test: test.length };
}
