import { registerGridEnvs } from '@saccade/env-grid';
import { VisionLanguageModel } from '@saccade/models';
import type { RunEvent } from '@saccade/spec';
import { initTensor, tf } from '@saccade/tensor';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { collectDemonstrations } from './collect-demonstrations';
import { evaluatePolicy } from './evaluate-policy';
import { policyMessages } from './policy-messages';
import { trainSft } from './train-sft';

const envId = 'saccade/FrozenLake-v1';
const envOptions = { format: 'no_think', observation: 'vision' };
const scratch = mkdtempSync(join(tmpdir(), 'saccade-sft-'));

beforeAll(async () => {
  await initTensor();
  registerGridEnvs();
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('collectDemonstrations', () => {
  test('records the solver answer of every turn, each one image', async () => {
    const demonstrations = await collectDemonstrations({ envId, envOptions, seeds: [1, 2, 3] });
    expect(demonstrations.length).toBeGreaterThanOrEqual(3);
    for (const demonstration of demonstrations) {
      expect(demonstration.response).toMatch(/^<answer>(Left|Right|Up|Down)(, ?(Left|Right|Up|Down)){0,2}<\/answer>$/);
      expect(demonstration.observation.images).toHaveLength(1);
    }
    // Every seed's episode starts at turn 0, in seed order.
    expect(demonstrations.filter((demonstration) => demonstration.turn === 0).map((demonstration) => demonstration.seed)).toEqual([1, 2, 3]);
  });

  test('keeps seed and turn order while episodes play concurrently, and stops at the limit', async () => {
    const seeds = Array.from({ length: 20 }, (_, index) => 100 + index);
    const all = await collectDemonstrations({ envId, envOptions, seeds });
    const key = (demonstration: { seed: number; turn: number }): string => `${demonstration.seed}:${demonstration.turn}`;
    const expected = seeds.flatMap((seed) => {
      const turns = all.filter((demonstration) => demonstration.seed === seed).map((demonstration) => demonstration.turn);
      expect(turns).toEqual(turns.map((_, index) => index));
      return turns.map((turn) => `${seed}:${turn}`);
    });
    expect(all.map(key)).toEqual(expected);
    const limited = await collectDemonstrations({ envId, envOptions, seeds, limit: 7 });
    expect(limited.map(key)).toEqual(expected.slice(0, 7));
  });
});

describe('policyMessages', () => {
  const image = { data: new Uint8Array([1]), mediaType: 'image/png' as const };
  test("the 'image' view keeps only the images", () => {
    expect(policyMessages({ text: 'Look:\n<image>\nMove.', images: [image] }, 'image')).toEqual([
      { role: 'user', content: [{ type: 'image', image }] },
    ]);
  });
  test("the 'full' view keeps text and images in order", () => {
    expect(policyMessages({ text: 'Look:\n<image>\nMove.', images: [image] }, 'full')).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Look:\n' }, { type: 'image', image }, { type: 'text', text: '\nMove.' }] },
    ]);
  });
});

describe('trainSft', () => {
  test('lowers the loss, evaluates on held-out seeds, checkpoints, and leaks no tensors', async () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 0 });
    const events: RunEvent[] = [];
    const before = tf.memory().numTensors;
    const result = await trainSft(
      model,
      {
        envId,
        envOptions,
        view: 'image',
        trainSeeds: { start: 1000, count: 12 },
        evalSeeds: { start: 0, count: 4 },
        maxTurns: 3,
        steps: 24,
        batchSize: 8,
        learningRate: 1e-2,
        warmupSteps: 2,
        evalEvery: 12,
        seed: 0,
        checkpointFolder: scratch,
      },
      (event) => events.push(event),
    );
    expect(tf.memory().numTensors).toBe(before);
    expect(result.steps).toBe(24);
    const losses = events.flatMap((event) => (event.type === 'update-end' ? [event.metrics.loss!] : []));
    expect(losses).toHaveLength(24);
    expect(losses.at(-1)!).toBeLessThan(losses[0]! / 2);
    // Evaluations at steps 0, 12 and 24, each over the 4 held-out episodes.
    expect(result.evaluations.map((evaluation) => [evaluation.step, evaluation.episodes])).toEqual([
      [0, 4],
      [12, 4],
      [24, 4],
    ]);
    expect(events.filter((event) => event.type === 'checkpoint-saved')).toHaveLength(1);
    expect(readdirSync(join(scratch, '24')).sort()).toEqual(expect.arrayContaining(['config.json', 'manifest.json', 'weights.bin']));
    model.dispose();
  });

  test('refuses evaluation seeds that overlap the training seeds', async () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 0 });
    await expect(
      trainSft(model, {
        envId,
        envOptions,
        view: 'image',
        trainSeeds: { start: 0, count: 10 },
        evalSeeds: { start: 5, count: 10 },
        maxTurns: 3,
        steps: 1,
        batchSize: 1,
        learningRate: 1e-3,
        warmupSteps: 0,
        evalEvery: 1,
        seed: 0,
      }),
    ).rejects.toThrow('Evaluation seeds overlap the training seeds (e.g. 5)');
    model.dispose();
  });
});

describe('evaluatePolicy', () => {
  test('an untrained model plays every episode to the turn cap or its end', async () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 1 });
    const result = await evaluatePolicy(model, { envId, envOptions, seeds: [0, 1, 2], view: 'image', maxTurns: 3, maxTokens: 8 });
    expect(result.episodes).toBe(3);
    expect(result.meanTurns).toBeGreaterThanOrEqual(1);
    expect(result.meanTurns).toBeLessThanOrEqual(3);
    expect(result.success).toBeGreaterThanOrEqual(0);
    model.dispose();
  });
});
