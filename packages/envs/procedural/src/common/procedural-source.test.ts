import { contentHash } from '@saccade/image';
import type { ImageData } from '@saccade/spec';
import { describe, expect, it } from 'vitest';
import { PROCEDURAL_VQA_ENVS } from '../register-procedural-envs';
import { svgReconstructionGenerator } from '../svg-reconstruction/svg-reconstruction-generator';
import { ProceduralSource } from './procedural-source';
import { seedForIndex, SPLIT_SEED_RANGES, splitOfSeed } from './split';

const generators = [...PROCEDURAL_VQA_ENVS.map((entry) => entry.generator), svgReconstructionGenerator];

describe('splits', () => {
  it('train and test seeds come from disjoint ranges, whatever the index', () => {
    const train = SPLIT_SEED_RANGES.train;
    const test = SPLIT_SEED_RANGES.test;
    expect(train.start + train.size).toBeLessThanOrEqual(test.start);
    for (const index of [0, 1, 17, 2 ** 31 - 1, 2 ** 31, 2 ** 40 + 5, Number.MAX_SAFE_INTEGER]) {
      expect(splitOfSeed(seedForIndex('train', index))).toBe('train');
      expect(splitOfSeed(seedForIndex('test', index))).toBe('test');
    }
    const trainSeeds = new Set(Array.from({ length: 1000 }, (_, index) => seedForIndex('train', index)));
    expect(Array.from({ length: 1000 }, (_, index) => seedForIndex('test', index)).some((seed) => trainSeeds.has(seed))).toBe(false);
    expect(() => seedForIndex('train', -1)).toThrow(/index: expected a non-negative safe integer, received -1/);
  });

  it.each(generators.map((generator) => [generator.name, generator] as const))('%s: the same index gives the same bytes and question; the test split gives other tasks', async (_name, generator) => {
    const a = await new ProceduralSource(generator, {}).get(2);
    const b = await new ProceduralSource(generator, {}).get(2);
    expect(contentHash(a.images[0] as ImageData)).toBe(contentHash(b.images[0] as ImageData));
    expect([a.question, a.answer, a.id]).toEqual([b.question, b.answer, b.id]);
    const test = await new ProceduralSource(generator, { split: 'test' }).get(2);
    expect(test.id).not.toBe(a.id);
    expect(test.metadata!.split).toBe('test');
    expect(contentHash(test.images[0] as ImageData)).not.toBe(contentHash(a.images[0] as ImageData));
  });

  it('refuses a bad split or difficulty with what was expected', () => {
    const [generator] = generators;
    expect(() => new ProceduralSource(generator!, { split: 'validation' as never })).toThrow(/split: expected 'train' or 'test', received "validation"/);
    expect(() => new ProceduralSource(generator!, { difficulty: 2 })).toThrow(/difficulty: expected a number from 0 \(easiest\) to 1 \(hardest\), received 2/);
  });

  it('is endless and streams tasks in order', async () => {
    const source = new ProceduralSource(generators[2]!, {});
    expect(await source.size()).toBe(Infinity);
    const iterator = source[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.value.id).toBe((await source.get(0)).id);
  });
});
