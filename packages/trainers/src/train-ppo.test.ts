import { createRng } from '@saccade/core';
import { registerGridEnvs } from '@saccade/env-grid';
import { createAdamOptimizer, DataParallel, VisionLanguageModel } from '@saccade/models';
import type { RunEvent } from '@saccade/spec';
import { initTensor, tf } from '@saccade/tensor';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { computeBiLevelGae } from './advantages/index';
import { ppoShardLoss, type PpoExample, type PpoLossContext } from './losses/ppo-loss';
import type { PlayedEpisode } from './play-episodes';
import { forEachForward, maskedTokens, runPolicyUpdates } from './policy-training';
import { episodeSequence, ppoAdvantages, ppoBatch, ppoLossReference, trainPpo } from './train-ppo';

const scratch = mkdtempSync(join(tmpdir(), 'saccade-ppo-'));

beforeAll(async () => {
  await initTensor();
  registerGridEnvs();
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function episode(turns: { prompt: number[]; tokens: number[]; reward: number }[]): PlayedEpisode {
  return {
    seed: 7,
    return: turns.reduce((sum, turn) => sum + turn.reward, 0),
    success: false,
    rewardTerms: {},
    turns: turns.map((turn) => ({
      prompt: { tokens: turn.prompt, images: [] },
      tokens: turn.tokens,
      logProbs: turn.tokens.map(() => -1),
      text: '',
      finishReason: 'stop' as const,
      reward: turn.reward,
      formatCorrect: true,
    })),
  };
}

const close = (actual: ArrayLike<number>, expected: readonly number[]): void => {
  expect(actual.length).toBe(expected.length);
  expected.forEach((value, index) => expect(actual[index]).toBeCloseTo(value, 12));
};

describe('episodeSequence and ppoAdvantages (a hand-made two-turn episode)', () => {
  // Turn 1 writes 3 tokens (reward 0.5), turn 2 writes 2 (reward 10.4); values per generated token.
  const played = episode([
    { prompt: [1, 2], tokens: [11, 12, 13], reward: 0.5 },
    { prompt: [1, 2, 3], tokens: [21, 22], reward: 10.4 },
  ]);
  const sequence = episodeSequence(played, [[0.5, 1, 2], [4, 8]]);

  test("lays the turns out as VAGEN's rollout: an observation slot, the turn's tokens, its reward on the last one", () => {
    expect(sequence).toEqual({
      rewards: [0, 0, 0, 0.5, 0, 0, 10.4],
      values: [0, 0.5, 1, 2, 0, 4, 8],
      lossMask: [0, 1, 1, 1, 0, 1, 1],
      endOfTurn: [3, 6],
      turnOffsets: [1, 5],
    });
  });

  test('bi-level GAE (γ_turn 0.95, γ_token 1, λ 1): the exact advantages and returns', () => {
    // Turn pass: A_1 = 10.4 − 8 = 2.4; A_0 = 0.5 + 0.95·8 − 2 + 0.95·2.4 = 8.38.
    // Token pass from r'[E] = A + V[E]: turn 2: 2.4, 2.4 + (8 − 4) = 6.4; turn 1: 8.38, 8.38 + (2 − 1), 9.38 + (1 − 0.5).
    const result = ppoAdvantages([sequence], { advantageEstimator: 'bi-level', whiten: false });
    close(result.advantages[0]!, [0, 9.88, 9.38, 8.38, 0, 6.4, 2.4]);
    close(result.returns[0]!, [0, 10.38, 10.38, 10.38, 0, 10.4, 10.4]);
    close(result.valueMask[0]!, [0, 1, 1, 1, 0, 1, 1]);
    const direct = computeBiLevelGae({ ...sequence, gammaTurn: 0.95, gammaToken: 1, lambda: 1 });
    close(result.advantages[0]!, Array.from(direct.advantages));

    // Whitened over the five generated tokens: (x − 7.288) / sqrt(var_unbiased + 1e−8).
    const whitened = ppoAdvantages([sequence], { advantageEstimator: 'bi-level' });
    const raw = [9.88, 9.38, 8.38, 6.4, 2.4];
    const mean = 7.288;
    const std = Math.sqrt(raw.reduce((sum, x) => sum + (x - mean) ** 2, 0) / 4 + 1e-8);
    close(whitened.advantages[0]!, [0, ...raw.slice(0, 3).map((x) => (x - mean) / std), 0, ...raw.slice(3).map((x) => (x - mean) / std)]);
    close(whitened.rawAdvantages[0]!, [0, 9.88, 9.38, 8.38, 0, 6.4, 2.4]);
    close(whitened.returns[0]!, [0, 10.38, 10.38, 10.38, 0, 10.4, 10.4]);
  });

  test('masked GAE (γ 1, λ 1) and turn-wise GAE (γ_turn 0.95) on the same episode', () => {
    const masked = ppoAdvantages([sequence], { advantageEstimator: 'masked', whiten: false });
    close(masked.returns[0]!, [0, 10.9, 10.9, 10.9, 0, 10.4, 10.4]);
    close(masked.advantages[0]!, [0, 10.4, 9.9, 8.9, 0, 6.4, 2.4]);
    const turnWise = ppoAdvantages([sequence], { advantageEstimator: 'turn-wise', whiten: false });
    close(turnWise.advantages[0]!, [0, 8.38, 8.38, 8.38, 0, 2.4, 2.4]);
    close(turnWise.returns[0]!, [0, 0, 0, 10.38, 0, 0, 10.4]);
    close(turnWise.valueMask[0]!, [0, 0, 0, 1, 0, 0, 1]);
  });

  test("a turn with no tokens hands its reward to the previous turn's last token; rewardScale scales rewards", () => {
    const gap = episode([
      { prompt: [1], tokens: [5, 6], reward: 0.5 },
      { prompt: [1], tokens: [], reward: -0.1 },
      { prompt: [1], tokens: [7], reward: 10 },
    ]);
    const laid = episodeSequence(gap, [[1, 2], [], [3]], 0.5);
    expect(laid).toEqual({ rewards: [0, 0, 0.2, 0, 5], values: [0, 1, 2, 0, 3], lossMask: [0, 1, 1, 0, 1], endOfTurn: [2, 4], turnOffsets: [1, -1, 4] });
    expect(() => episodeSequence(gap, [[1], [], [3]])).toThrow(/Turn 0 .* 2 tokens and 1 values/);
  });
});

describe('ppoBatch', () => {
  test("puts each turn's advantages and returns on its response tokens, with the value head's values", () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 3 });
    const played = episode([
      { prompt: [1, 2], tokens: [11, 12, 13], reward: 0.5 },
      { prompt: [1, 2, 3], tokens: [21, 22], reward: 10.4 },
    ]);
    const before = tf.memory().numTensors;
    const { examples, statistics } = ppoBatch(model, [played], { whiten: false });
    expect(tf.memory().numTensors).toBe(before);
    expect(examples.map((example) => example.tokens)).toEqual([[1, 2, 11, 12, 13], [1, 2, 3, 21, 22]]);
    const values = examples.map((example, row) => example.oldValues.slice(row === 0 ? 2 : 3));
    const expected = ppoAdvantages([episodeSequence(played, values)], { whiten: false });
    close(examples[0]!.advantages, [0, 0, ...Array.from(expected.advantages[0]!.subarray(1, 4))]);
    close(examples[1]!.advantages, [0, 0, 0, ...Array.from(expected.advantages[0]!.subarray(5, 7))]);
    close(examples[1]!.returns, [0, 0, 0, ...Array.from(expected.returns[0]!.subarray(5, 7))]);
    expect(examples[0]!.valueMask).toEqual([0, 0, 1, 1, 1]);
    expect(examples[0]!.oldLogProbs).toEqual([0, 0, -1, -1, -1]);
    // γ_token = λ = 1: every token of the last turn returns its reward.
    close(examples[1]!.returns.slice(3), [10.4, 10.4]);
    expect(Number.isFinite(statistics.explainedVariance)).toBe(true);
    model.dispose();
  });
});

describe('ppoShardLoss', () => {
  test('on-policy with returns one above the values: −mean(A) + c·½·1', () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 2 });
    const prompt = model.tokenizer.encode('Hi');
    const response = model.tokenizer.encode('<answer>Up</answer>');
    const tokens = [...prompt, ...response];
    const lossMask = tokens.map((_, index) => (index >= prompt.length ? 1 : 0));
    const inputs = model.prepare([{ tokens, images: [] }], 'right');
    const [logProbs, values] = tf.tidy(() => {
      const output = model.logProbsAndValues(inputs);
      return [Array.from(output.logProbs.dataSync()), Array.from(output.values.dataSync())];
    });
    inputs.dispose();
    const example: PpoExample = {
      tokens,
      images: [],
      lossMask,
      advantages: lossMask.map((mask) => mask * 1.5),
      oldLogProbs: logProbs,
      returns: values.map((value, index) => (lossMask[index] ? value + 1 : 0)),
      oldValues: values,
      valueMask: lossMask,
    };
    const context: PpoLossContext = {
      aggregation: 'token-mean',
      tokenCount: response.length,
      sequenceCount: 1,
      clipLow: 0.2,
      clipHigh: 0.2,
      klCoefficient: 0,
      entropyCoefficient: 0,
      valueTokenCount: response.length,
      valueCoefficient: 0.5,
      valueClip: 0.5,
      policyCoefficient: 1,
    };
    const output = ppoShardLoss(model, [example], context);
    expect(output.loss.dataSync()[0]).toBeCloseTo(-1.5 + 0.5 * 0.5, 4);
    expect(output.metrics?.['valueLoss']?.dataSync()[0]).toBeCloseTo(0.5, 4);
    expect(output.metrics?.['policyLoss']?.dataSync()[0]).toBeCloseTo(-1.5, 4);
    expect(output.metrics?.['valueClipFraction']?.dataSync()[0]).toBe(0);
    tf.dispose([output.loss, ...Object.values(output.metrics ?? {})]);

    // Values 1 below the old ones: the clipped prediction (old − 0.5) is 1.5 from the return, the
    // unclipped one 2: max(4, 2.25) = 4, so nothing is clipped; 1 above: max(0, 0.25) clips.
    const below = ppoShardLoss(model, [{ ...example, oldValues: values.map((value) => value + 1), returns: values.map((value, index) => (lossMask[index] ? value + 2 : 0)) }], { ...context, policyCoefficient: 0 });
    expect(below.loss.dataSync()[0]).toBeCloseTo(0.5 * 0.5 * 4, 4);
    tf.dispose([below.loss, ...Object.values(below.metrics ?? {})]);
    const above = ppoShardLoss(model, [{ ...example, oldValues: values.map((value) => value - 1), returns: values.map((value, index) => (lossMask[index] ? value : 0)) }], { ...context, policyCoefficient: 0 });
    expect(above.loss.dataSync()[0]).toBeCloseTo(0.5 * 0.5 * 0.25, 4);
    expect(above.metrics?.['valueClipFraction']?.dataSync()[0]).toBeCloseTo(1, 6);
    tf.dispose([above.loss, ...Object.values(above.metrics ?? {})]);

    expect(() => ppoShardLoss(model, [{ ...example, returns: [1] }], context)).toThrow(/examples\[0\]\.returns/);
    model.dispose();
  });
});

describe('one PPO update', () => {
  test('moves the value head toward the returns and leaks no tensors', async () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 5 });
    const encode = (text: string): number[] => model.tokenizer.encode(text);
    const episodes = [
      episode([
        { prompt: encode('a'), tokens: encode('<answer>Up</answer>'), reward: 0.5 },
        { prompt: encode('b'), tokens: encode('<answer>Left</answer>'), reward: 10.4 },
      ]),
      episode([
        { prompt: encode('c'), tokens: encode('<answer>Down</answer>'), reward: 0.5 },
        { prompt: encode('d'), tokens: encode('<answer>Right</answer>'), reward: -0.1 },
      ]),
    ];
    const before = tf.memory().numTensors;
    const { examples } = ppoBatch(model, episodes, { rewardScale: 0.1 });
    // The sampler's log-probs: the model's own (ratio 1 at the first update).
    forEachForward(model, examples, (example, logProbs) => {
      example.oldLogProbs = example.lossMask.map((mask, column) => (mask ? logProbs[column]! : 0));
    });
    const valueError = (): number => {
      let sum = 0;
      let count = 0;
      forEachForward(model, examples, (example, _logProbs, values) => {
        example.valueMask.forEach((mask, column) => {
          if (mask === 1) {
            sum += (values[column]! - example.returns[column]!) ** 2;
            count++;
          }
        });
      });
      return sum / count;
    };
    const start = valueError();
    const optimizer = createAdamOptimizer({ learningRate: 3e-3 });
    const parallel = await DataParallel.create(model, { workers: 1 });
    try {
      const result = await runPolicyUpdates({
        parallel,
        optimizer,
        loss: ppoLossReference(),
        examples,
        learningRate: 3e-3,
        epochs: 4,
        miniBatches: 2,
        rng: createRng(0),
        context: (batch): PpoLossContext => ({
          aggregation: 'token-mean',
          tokenCount: batch.reduce((sum, example) => sum + maskedTokens(example), 0),
          sequenceCount: batch.length,
          clipLow: 0.2,
          clipHigh: 0.2,
          klCoefficient: 0,
          entropyCoefficient: 0,
          valueTokenCount: batch.reduce((sum, example) => sum + maskedTokens({ lossMask: example.valueMask }), 0),
          valueCoefficient: 0.5,
          valueClip: 0,
          policyCoefficient: 1,
        }),
      });
      expect(result.updates).toBe(8);
      expect(Number.isFinite(result.metrics['valueLoss'])).toBe(true);
    } finally {
      optimizer.dispose();
      await parallel.close();
    }
    const end = valueError();
    expect(end).toBeLessThan(start * 0.5);
    expect(tf.memory().numTensors).toBe(before);
    model.dispose();
  });
});

describe('trainPpo', () => {
  test('plays, warms the critic up, updates, evaluates, checkpoints, and leaks no tensors', async () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 0 });
    const events: RunEvent[] = [];
    const before = tf.memory().numTensors;
    const result = await trainPpo(
      model,
      {
        envId: 'saccade/Sokoban-v1',
        envOptions: { format: 'no_think', observation: 'vision', maxActionsPerTurn: 1 },
        view: 'image',
        trainSeeds: { start: 1000, count: 50 },
        evalSeeds: { start: 0, count: 3 },
        maxTurns: 2,
        steps: 2,
        episodesPerStep: 3,
        learningRate: 1e-3,
        maxTokens: 10,
        valueWarmupSteps: 1,
        criticLearningRate: 1e-2,
        klCoefficient: 0.01,
        epochs: 2,
        miniBatches: 2,
        evalEvery: 2,
        seed: 0,
        workers: 1,
        checkpointFolder: join(scratch, 'checkpoints'),
      },
      (event) => events.push(event),
    );
    expect(result.steps).toBe(2);
    expect(result.evaluations.map((evaluation) => evaluation.step)).toEqual([0, 2]);
    expect(events.filter((event) => event.type === 'rollout-end').map((event) => event.episodes)).toEqual([3, 3]);
    const updates = events.filter((event) => event.type === 'update-end');
    expect(updates.map((update) => update.metrics['valueWarmup'])).toEqual([1, 0]);
    for (const update of updates) {
      for (const name of ['loss', 'valueLoss', 'policyLoss', 'clipFraction', 'explainedVariance', 'advantageMean', 'advantageStd', 'kl']) {
        expect(Number.isFinite(update.metrics[name]), name).toBe(true);
      }
    }
    expect(readdirSync(join(scratch, 'checkpoints'))).toEqual(['2']);
    expect(tf.memory().numTensors).toBe(before);
    model.dispose();
  });
});
