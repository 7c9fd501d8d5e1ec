import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOracleAgent } from '@saccade/agents';
import { contentHash } from '@saccade/image';
import { FROZEN_LAKE_ID, registerGridEnvs } from '@saccade/env-grid';
import { createModelSequenceTokenizer } from '@saccade/models';
import type { Trajectory } from '@saccade/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSequencesParquet, writeSequencesParquet } from './export-sequences';
import { runRollouts } from './run-rollouts';
import { tokenizeTrajectory } from './tokenize-trajectory';
import { openTrajectoryStore } from './trajectory-store';

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'saccade-pipeline-'));
  registerGridEnvs();
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('rollouts → store → token sequences → Parquet', () => {
  it('plays FrozenLake with images, stores it, and tokenises what it read back', async () => {
    const store = await openTrajectoryStore({ path: join(directory, 'trajectories', 'rollouts.jsonl') });
    const { trajectories } = await runRollouts({
      prompts: [0, 1, 2].map((seed) => ({ envId: FROZEN_LAKE_ID, seed, envOptions: { observation: 'vision', format: 'free_think' } })),
      groupSize: 2,
      agent: ({ env }) => createOracleAgent({ env }),
      maxTurns: 3,
      store,
    });
    await store.close();
    expect(trajectories.every((trajectory) => trajectory.error === undefined && trajectory.turns.length > 0)).toBe(true);

    const stored: Trajectory[] = [];
    for await (const trajectory of store.read({ filter: { success: true } })) stored.push(trajectory);
    expect(stored.length).toBeGreaterThan(0);
    // The stored image is the env's image, byte for byte.
    const reference = stored[0]?.turns[0]?.observation.images[0];
    expect(reference).toBeDefined();
    const bytes = await store.readImage(reference!);
    expect(contentHash(bytes.data)).toBe(reference?.hash);

    const tokenizer = createModelSequenceTokenizer({ imageTokens: 16 });
    const sequences = stored.map((trajectory) => tokenizeTrajectory(trajectory, tokenizer));
    for (const [index, sequence] of sequences.entries()) {
      const trajectory = stored[index] as Trajectory;
      expect(sequence.endOfTurn).toHaveLength(trajectory.turns.length);
      expect(sequence.imageSpans).toHaveLength(trajectory.turns.reduce((sum, turn) => sum + turn.observation.images.length, 0));
      // What the trainers' GAE checks: ends of turn on loss tokens, the last loss token ends a turn,
      // and rewards only where the loss is.
      expect(sequence.endOfTurn.every((position) => sequence.lossMask[position] === 1)).toBe(true);
      expect(sequence.lossMask.lastIndexOf(1)).toBe(sequence.endOfTurn.at(-1));
      expect(sequence.rewards.every((reward, position) => reward === 0 || sequence.lossMask[position] === 1)).toBe(true);
      expect(sequence.rewards.reduce((sum, reward) => sum + reward, 0)).toBeCloseTo(trajectory.totalReward, 10);
    }
    const path = join(directory, 'sequences.parquet');
    await writeSequencesParquet(path, sequences);
    const records = await readSequencesParquet(path);
    expect(records.map((record) => record.input_ids)).toEqual(sequences.map((sequence) => sequence.inputIds));
  });
});
