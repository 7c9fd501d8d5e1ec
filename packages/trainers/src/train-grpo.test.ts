import { registerGridEnvs } from '@saccade/env-grid';
import { VisionLanguageModel, type RgbImage } from '@saccade/models';
import type { RunEvent } from '@saccade/spec';
import { initTensor, tf } from '@saccade/tensor';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { policyShardLoss, type PolicyExample, type PolicyLossContext } from './losses/policy-loss';
import type { PlayedEpisode } from './play-episodes';
import { policyExamples, trainGrpo } from './train-grpo';

const envId = 'saccade/FrozenLake-v1';
const envOptions = { format: 'no_think', observation: 'vision' };
const scratch = mkdtempSync(join(tmpdir(), 'saccade-grpo-'));

beforeAll(async () => {
  await initTensor();
  registerGridEnvs();
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const image: RgbImage = { width: 64, height: 64, data: new Uint8Array(64 * 64 * 3).fill(90) };

function episode(returnValue: number, prompt: number[], response: number[][]): PlayedEpisode {
  return {
    seed: 1,
    return: returnValue,
    success: returnValue > 1,
    rewardTerms: {},
    turns: response.map((tokens) => ({
      prompt: { tokens: prompt, images: [image] },
      tokens,
      logProbs: tokens.map(() => -1),
      text: '',
      finishReason: 'stop' as const,
      reward: returnValue,
      formatCorrect: true,
    })),
  };
}

describe('policyExamples', () => {
  test("masks the prompt, gives every response token its episode's advantage, and skips uniform groups", () => {
    const episodes = [episode(10.5, [1, 2], [[7, 8]]), episode(0.5, [1, 2], [[9], [5, 6]]), episode(3, [1], [[4]]), episode(3, [1], [[4]])];
    const examples = policyExamples(episodes, [0.7, -0.7, 0, 0], [0, 0, 1, 1], true);
    expect(examples).toHaveLength(3);
    expect(examples[0]).toMatchObject({ tokens: [1, 2, 7, 8], lossMask: [0, 0, 1, 1], advantages: [0, 0, 0.7, 0.7], oldLogProbs: [0, 0, -1, -1] });
    expect(examples[2]).toMatchObject({ tokens: [1, 2, 5, 6], lossMask: [0, 0, 1, 1], advantages: [-0, -0, -0.7, -0.7] });
    expect(policyExamples(episodes, [0.7, -0.7, 0, 0], [0, 0, 1, 1], false)).toHaveLength(5);
  });

  test('with success scores, two successes of different returns make a uniform group', () => {
    const episodes = [episode(10.5, [1], [[7]]), episode(11, [1], [[8], [9]])];
    expect(policyExamples(episodes, [-0.7, 0.7], [0, 0], true, [1, 1])).toHaveLength(0);
    expect(policyExamples(episodes, [-0.7, 0.7], [0, 0], true)).toHaveLength(3);
  });
});

describe('policyShardLoss', () => {
  const context: PolicyLossContext = { aggregation: 'token-mean', tokenCount: 0, sequenceCount: 0, clipLow: 0.2, clipHigh: 0.2, klCoefficient: 0, entropyCoefficient: 0 };

  test('on-policy (ratio 1) the loss is −mean(A) over response tokens and nothing is clipped', () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 2 });
    const prompt = model.tokenizer.encode('Hi');
    const response = model.tokenizer.encode('<answer>Up</answer>');
    const tokens = [...prompt, ...response];
    const base = { tokens, images: [], lossMask: tokens.map((_, index) => (index >= prompt.length ? 1 : 0)) };
    const inputs = model.prepare([base], 'right');
    const current = tf.tidy(() => Array.from(model.logProbsAndValues(inputs).logProbs.dataSync()));
    inputs.dispose();
    const example: PolicyExample = { ...base, advantages: base.lossMask.map((mask) => mask * 1.5), oldLogProbs: current };
    const output = policyShardLoss(model, [example], { ...context, tokenCount: response.length, sequenceCount: 1 });
    expect(output.loss.dataSync()[0]).toBeCloseTo(-1.5, 4);
    expect(output.metrics?.['clipFraction']?.dataSync()[0]).toBe(0);
    expect(output.metrics?.['approxKl']?.dataSync()[0]).toBeCloseTo(0, 6);
    tf.dispose([output.loss, ...Object.values(output.metrics ?? {})]);

    // Old log-probs 1 nat lower: ratio e ≈ 2.72 > 1.2, so a positive advantage is clipped at 1.2.
    const stale: PolicyExample = { ...example, oldLogProbs: current.map((value) => value - 1) };
    const clipped = policyShardLoss(model, [stale], { ...context, tokenCount: response.length, sequenceCount: 1 });
    expect(clipped.loss.dataSync()[0]).toBeCloseTo(-1.5 * 1.2, 4);
    expect(clipped.metrics?.['clipFraction']?.dataSync()[0]).toBeCloseTo(1, 6);
    tf.dispose([clipped.loss, ...Object.values(clipped.metrics ?? {})]);
    model.dispose();
  });

  test('names a per-token array of the wrong length', () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 2 });
    const bad: PolicyExample = { tokens: model.tokenizer.encode('abc'), images: [], lossMask: [0, 1, 1], advantages: [0, 1], oldLogProbs: [0, 0, 0] };
    expect(() => policyShardLoss(model, [bad], { ...context, tokenCount: 2, sequenceCount: 1 })).toThrow(/examples\[0\]\.advantages.*3 entries/);
    model.dispose();
  });
});

describe('trainGrpo', () => {
  test('plays groups, updates, evaluates, checkpoints, and leaks no tensors', async () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 0 });
    const events: RunEvent[] = [];
    const before = tf.memory().numTensors;
    const result = await trainGrpo(
      model,
      {
        envId,
        envOptions,
        view: 'image',
        trainSeeds: { start: 1000, count: 50 },
        evalSeeds: { start: 0, count: 4 },
        maxTurns: 2,
        steps: 2,
        promptsPerStep: 2,
        groupSize: 3,
        learningRate: 1e-3,
        maxTokens: 12,
        skipUniformGroups: false,
        klCoefficient: 0.01,
        evalEvery: 2,
        seed: 0,
        workers: 1,
        checkpointFolder: join(scratch, 'checkpoints'),
      },
      (event) => events.push(event),
    );
    expect(result.steps).toBe(2);
    expect(result.evaluations.map((evaluation) => evaluation.step)).toEqual([0, 2]);
    const rollouts = events.filter((event) => event.type === 'rollout-end');
    expect(rollouts.map((event) => event.episodes)).toEqual([6, 6]);
    const updates = events.filter((event) => event.type === 'update-end');
    expect(updates).toHaveLength(2);
    for (const update of updates) {
      expect(Number.isFinite(update.metrics['loss'])).toBe(true);
      expect(update.metrics['kl']).toBeGreaterThanOrEqual(0);
      expect(update.metrics['clipFraction']).toBeGreaterThanOrEqual(0);
    }
    expect(readdirSync(join(scratch, 'checkpoints'))).toEqual(['2']);
    expect(tf.memory().numTensors).toBe(before);
    model.dispose();
  });
});
