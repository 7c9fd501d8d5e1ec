import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSequencesParquet, sequenceToRecord, writeSequencesJsonl, writeSequencesParquet } from './export-sequences';
import type { TrainingSequence } from './tokenize-trajectory';

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'saccade-export-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

const sequences: TrainingSequence[] = [
  {
    trajectoryId: 'b-0-0',
    groupId: 'b-0',
    envId: 'test/Count-v1',
    seed: 2 ** 40,
    agentId: 'mock',
    tokenizer: 'qwen2.5-vl',
    inputIds: [151644, 872, 198, 151652, 151655, 151653, 151645, 198, 151644, 77091, 198, 17453, 151645, 198],
    lossMask: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0],
    advantageMask: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0],
    endOfTurn: [12],
    rewards: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.25, 0],
    turnIds: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    images: [{ hash: 'c'.repeat(64), mediaType: 'image/png' }],
    imageSpans: [{ start: 3, end: 6 }],
    totalReward: 0.25,
    success: true,
    truncatedTokens: 0,
    droppedTurns: 0,
  },
  {
    trajectoryId: 'b-1-0',
    envId: 'test/Count-v1',
    seed: null,
    agentId: 'mock',
    tokenizer: 'qwen2.5-vl',
    inputIds: [1, 2],
    lossMask: [0, 1],
    advantageMask: [0, 1],
    endOfTurn: [1],
    rewards: [0, -1.5],
    turnIds: [-1, 0],
    images: [],
    imageSpans: [],
    totalReward: -1.5,
    success: false,
    truncatedTokens: 7,
    droppedTurns: 1,
  },
];

describe('export of token sequences', () => {
  it('writes JSONL with snake_case records, one a line', async () => {
    const path = join(directory, 'out', 'sequences.jsonl');
    expect(await writeSequencesJsonl(path, sequences)).toBe(2);
    const lines = (await readFile(path, 'utf8')).trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line))).toEqual(sequences.map(sequenceToRecord));
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({
      trajectory_id: 'b-0-0',
      group_id: 'b-0',
      loss_mask: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0],
      end_of_turn: [12],
      image_hashes: ['c'.repeat(64)],
      image_starts: [3],
      image_ends: [6],
    });
    expect(JSON.parse(lines[1] ?? '').group_id).toBeNull();
    // No temporary file is left beside it.
    expect(await readdir(join(directory, 'out'))).toEqual(['sequences.jsonl']);
  });

  it('writes Parquet that reads back to the same records', async () => {
    const path = join(directory, 'sequences.parquet');
    expect(await writeSequencesParquet(path, sequences)).toBe(2);
    const bytes = await readFile(path);
    expect(bytes.subarray(0, 4).toString()).toBe('PAR1');
    expect(bytes.subarray(-4).toString()).toBe('PAR1');
    expect(await readSequencesParquet(path)).toEqual(sequences.map(sequenceToRecord));
  });

  it('writes an empty batch', async () => {
    const path = join(directory, 'empty.parquet');
    expect(await writeSequencesParquet(path, [])).toBe(0);
    expect(await readSequencesParquet(path)).toEqual([]);
  });
});
