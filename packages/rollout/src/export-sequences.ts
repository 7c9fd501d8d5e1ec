import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { finished } from 'node:stream/promises';
import { InvalidArgumentError } from '@saccade/spec';
import type { TrainingSequence } from './tokenize-trajectory';

/**
 * A training sequence as outside trainers read it (verl, Hugging Face datasets): snake_case
 * columns, one row per trajectory.
 */
export interface SequenceRecord {
  trajectory_id: string;
  group_id: string | null;
  env_id: string;
  seed: number | null;
  agent_id: string;
  tokenizer: string;
  input_ids: number[];
  loss_mask: number[];
  advantage_mask: number[];
  /** Positions of the end-of-turn tokens. */
  end_of_turn: number[];
  rewards: number[];
  turn_ids: number[];
  /** Content hashes of the images, in token order (files `images/<hash>.<ext>` in the store). */
  image_hashes: string[];
  /** Where each image's tokens start and end (`[start, end)`). */
  image_starts: number[];
  image_ends: number[];
  total_reward: number;
  success: boolean;
  truncated_tokens: number;
  dropped_turns: number;
}

/** A training sequence as a SequenceRecord row: the snake_case columns outside trainers read. */
export function sequenceToRecord(sequence: TrainingSequence): SequenceRecord {
  return {
    trajectory_id: sequence.trajectoryId,
    group_id: sequence.groupId ?? null,
    env_id: sequence.envId,
    seed: sequence.seed,
    agent_id: sequence.agentId,
    tokenizer: sequence.tokenizer,
    input_ids: sequence.inputIds,
    loss_mask: sequence.lossMask,
    advantage_mask: sequence.advantageMask,
    end_of_turn: sequence.endOfTurn,
    rewards: sequence.rewards,
    turn_ids: sequence.turnIds,
    image_hashes: sequence.images.map((image) => image.hash),
    image_starts: sequence.imageSpans.map((span) => span.start),
    image_ends: sequence.imageSpans.map((span) => span.end),
    total_reward: sequence.totalReward,
    success: sequence.success,
    truncated_tokens: sequence.truncatedTokens,
    dropped_turns: sequence.droppedTurns,
  };
}

/**
 * Writes sequences as JSONL (one `SequenceRecord` a line), streaming, to a temporary file renamed
 * into place at the end: a reader never sees half an export.
 */
export async function writeSequencesJsonl(path: string, sequences: Iterable<TrainingSequence> | AsyncIterable<TrainingSequence>): Promise<number> {
  checkPath(path);
  await mkdir(dirname(path), { recursive: true });
  const temporary = temporaryName(path);
  const stream = createWriteStream(temporary);
  let count = 0;
  try {
    for await (const sequence of sequences) {
      if (!stream.write(`${JSON.stringify(sequenceToRecord(sequence))}\n`)) {
        await new Promise<void>((resolve) => stream.once('drain', resolve));
      }
      count++;
    }
    stream.end();
    await finished(stream);
    await rename(temporary, path);
  } catch (error) {
    stream.destroy();
    await rm(temporary, { force: true });
    throw error;
  }
  return count;
}

type ParquetType = 'INT32' | 'INT64' | 'DOUBLE' | 'BOOLEAN' | 'STRING';

const scalarColumns: [keyof SequenceRecord, ParquetType, boolean][] = [
  ['trajectory_id', 'STRING', false],
  ['group_id', 'STRING', true],
  ['env_id', 'STRING', false],
  ['seed', 'INT64', true],
  ['agent_id', 'STRING', false],
  ['tokenizer', 'STRING', false],
  ['total_reward', 'DOUBLE', false],
  ['success', 'BOOLEAN', false],
  ['truncated_tokens', 'INT32', false],
  ['dropped_turns', 'INT32', false],
];

const listColumns: [keyof SequenceRecord, ParquetType][] = [
  ['input_ids', 'INT32'],
  ['loss_mask', 'INT32'],
  ['advantage_mask', 'INT32'],
  ['end_of_turn', 'INT32'],
  ['rewards', 'DOUBLE'],
  ['turn_ids', 'INT32'],
  ['image_hashes', 'STRING'],
  ['image_starts', 'INT32'],
  ['image_ends', 'INT32'],
];

/** A Parquet schema element, as hyparquet-writer takes it. */
interface SchemaElement {
  name: string;
  type?: 'INT32' | 'INT64' | 'DOUBLE' | 'BOOLEAN' | 'BYTE_ARRAY';
  converted_type?: 'UTF8' | 'LIST';
  repetition_type?: 'REQUIRED' | 'OPTIONAL' | 'REPEATED';
  num_children?: number;
}

function leaf(name: string, type: ParquetType, repetition: 'REQUIRED' | 'OPTIONAL'): SchemaElement {
  return type === 'STRING'
    ? { name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: repetition }
    : { name, type, repetition_type: repetition };
}

/** The Parquet schema: scalars, then the standard three-level LIST for each array column. */
function parquetSchema(): SchemaElement[] {
  const schema: SchemaElement[] = [{ name: 'root', num_children: scalarColumns.length + listColumns.length }];
  for (const [name, type, nullable] of scalarColumns) schema.push(leaf(name, type, nullable ? 'OPTIONAL' : 'REQUIRED'));
  for (const [name, type] of listColumns) {
    schema.push({ name, repetition_type: 'REQUIRED', converted_type: 'LIST', num_children: 1 });
    schema.push({ name: 'list', repetition_type: 'REPEATED', num_children: 1 });
    schema.push(leaf('element', type, 'REQUIRED'));
  }
  return schema;
}

/**
 * Writes sequences as one Parquet file (hyparquet-writer, Snappy): the `SequenceRecord` columns,
 * arrays as `list<int32>` / `list<double>` / `list<string>`, so that `pandas.read_parquet` or
 * `datasets.load_dataset('parquet', …)` reads them directly. Written to a temporary file and
 * renamed into place.
 */
export async function writeSequencesParquet(path: string, sequences: readonly TrainingSequence[]): Promise<number> {
  checkPath(path);
  if (!Array.isArray(sequences)) {
    throw new InvalidArgumentError({ argument: 'sequences', expected: 'an array of TrainingSequence', value: sequences });
  }
  const records = sequences.map(sequenceToRecord);
  const columnData = [
    ...scalarColumns.map(([name, type]) => ({
      name,
      data: records.map((record) => {
        const value = record[name];
        return type === 'INT64' && typeof value === 'number' ? BigInt(value) : value;
      }),
    })),
    ...listColumns.map(([name]) => ({ name, data: records.map((record) => record[name]) })),
  ];
  const { parquetWriteFile } = await import('hyparquet-writer');
  await mkdir(dirname(path), { recursive: true });
  const temporary = temporaryName(path);
  try {
    parquetWriteFile({ filename: temporary, columnData, schema: parquetSchema() as never });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  return records.length;
}

/** Reads a Parquet file written by `writeSequencesParquet` back into records (hyparquet). */
export async function readSequencesParquet(path: string): Promise<SequenceRecord[]> {
  checkPath(path);
  const { asyncBufferFromFile, parquetReadObjects } = await import('hyparquet');
  const rows = await parquetReadObjects({ file: await asyncBufferFromFile(path) });
  return rows.map((row) => {
    const record = { ...row } as Record<string, unknown>;
    if (typeof record.seed === 'bigint') record.seed = Number(record.seed);
    return record as unknown as SequenceRecord;
  });
}

function checkPath(path: unknown): void {
  if (typeof path !== 'string' || path.length === 0) throw new InvalidArgumentError({ argument: 'path', expected: 'a file path', value: path });
}

function temporaryName(path: string): string {
  return `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
}
