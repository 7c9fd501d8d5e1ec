import { createRng } from '@saccade/core';
import { MockAgent } from '@saccade/agents';
import { createAdamOptimizer, DataParallel, VisionLanguageModel } from '@saccade/models';
import type { RunEvent } from '@saccade/spec';
import { initTensor, tf } from '@saccade/tensor';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { computeBiLevelGae } from './advantages/index';
import { ppoShardLoss, type PpoExample, type PpoLossContext } from './losses/ppo-loss';
import type { TrainingSequence } from '@saccade/rollout';
import { colourAt, COLOUR_STEPS_ID, registerColourSteps } from '../test/colour-steps-env';
import { createPolicyEpisodes } from './policy-episodes';
import { policyExamples } from './train-grpo';
import { forEachForward, maskedTokens, runPolicyUpdates } from './policy-training';
import { episodeSequence, ppoAdvantages, ppoBatch, ppoLossReference, trainPpo } from './train-ppo';

const scratch = mkdtempSync(join(tmpdir(), 'saccade-ppo-'));

beforeAll(async () => {
  await initTensor();
  registerColourSteps();
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A training sequence as rollout's tokeniser lays it out: only the fields the GAE layout reads matter here. */
function sequence(fields: { inputIds: number[]; lossMask: number[]; endOfTurn: number[]; rewards: number[] }): TrainingSequence {
  return {
    trajectoryId: 't',
    envId: COLOUR_STEPS_ID,
    seed: 7,
    agentId: 'test',
    tokenizer: 'saccade-character',
    advantageMask: fields.lossMask,
    turnIds: fields.inputIds.map(() => 0),
    images: [],
    imageSpans: [],
    totalReward: 0,
    success: false,
    truncatedTokens: 0,
    droppedTurns: 0,
    ...fields,
  };
}

const close = (actual: ArrayLike<number>, expected: readonly number[]): void => {
  expect(actual.length).toBe(expected.length);
  expected.forEach((value, index) => expect(actual[index]).toBeCloseTo(value, 12));
};

describe('episodeSequence and ppoAdvantages (a hand-made two-turn episode)', () => {
  // One multi-turn sequence: [obs obs] turn 1 writes 3 tokens (reward 0.5), [obs] turn 2 writes 2 (reward 10.4).
  const multiTurn = sequence({ inputIds: [1, 2, 11, 12, 13, 3, 21, 22], lossMask: [0, 0, 1, 1, 1, 0, 1, 1], endOfTurn: [4, 7], rewards: [0, 0, 0, 0, 0.5, 0, 0, 10.4] });
  const laid = episodeSequence([multiTurn], [[9, 9, 0.5, 1, 2, 9, 4, 8]]);

  test('lays the advantage-masked tokens out in turn order, with their rewards, values and ends of turn', () => {
    expect(laid).toEqual({
      rewards: [0, 0, 0.5, 0, 10.4],
      values: [0.5, 1, 2, 4, 8],
      lossMask: [1, 1, 1, 1, 1],
      endOfTurn: [2, 4],
      positions: [[0, 2], [0, 3], [0, 4], [0, 6], [0, 7]],
    });
    // The same episode as two per-turn sequences (a history window shorter than the episode) lays out the same.
    const first = sequence({ inputIds: [1, 2, 11, 12, 13], lossMask: [0, 0, 1, 1, 1], endOfTurn: [4], rewards: [0, 0, 0, 0, 0.5] });
    const second = sequence({ inputIds: [1, 3, 21, 22], lossMask: [0, 0, 1, 1], endOfTurn: [3], rewards: [0, 0, 0, 10.4] });
    const split = episodeSequence([first, second], [[9, 9, 0.5, 1, 2], [9, 9, 4, 8]]);
    expect({ ...split, positions: [] }).toEqual({ ...laid, positions: [] });
    expect(split.positions).toEqual([[0, 2], [0, 3], [0, 4], [1, 2], [1, 3]]);
  });

  test('bi-level GAE (γ_turn 0.95, γ_token 1, λ 1): the exact advantages and returns', () => {
    // Turn pass: A_1 = 10.4 − 8 = 2.4; A_0 = 0.5 + 0.95·8 − 2 + 0.95·2.4 = 8.38.
    // Token pass from r'[E] = A + V[E]: turn 2: 2.4, 2.4 + (8 − 4) = 6.4; turn 1: 8.38, 8.38 + (2 − 1), 9.38 + (1 − 0.5).
    const result = ppoAdvantages([laid], { advantageEstimator: 'bi-level', whiten: false });
    close(result.advantages[0]!, [9.88, 9.38, 8.38, 6.4, 2.4]);
    close(result.returns[0]!, [10.38, 10.38, 10.38, 10.4, 10.4]);
    close(result.valueMask[0]!, [1, 1, 1, 1, 1]);
    const direct = computeBiLevelGae({ ...laid, gammaTurn: 0.95, gammaToken: 1, lambda: 1 });
    close(result.advantages[0]!, Array.from(direct.advantages));

    // Whitened over the five generated tokens: (x − 7.288) / sqrt(var_unbiased + 1e−8).
    const whitened = ppoAdvantages([laid], { advantageEstimator: 'bi-level' });
    const raw = [9.88, 9.38, 8.38, 6.4, 2.4];
    const mean = 7.288;
    const std = Math.sqrt(raw.reduce((sum, x) => sum + (x - mean) ** 2, 0) / 4 + 1e-8);
    close(whitened.advantages[0]!, raw.map((x) => (x - mean) / std));
    close(whitened.rawAdvantages[0]!, raw);
  });

  test('masked GAE (γ 1, λ 1) and turn-wise GAE (γ_turn 0.95) on the same episode', () => {
    const masked = ppoAdvantages([laid], { advantageEstimator: 'masked', whiten: false });
    close(masked.returns[0]!, [10.9, 10.9, 10.9, 10.4, 10.4]);
    close(masked.advantages[0]!, [10.4, 9.9, 8.9, 6.4, 2.4]);
    const turnWise = ppoAdvantages([laid], { advantageEstimator: 'turn-wise', whiten: false });
    close(turnWise.advantages[0]!, [8.38, 8.38, 8.38, 2.4, 2.4]);
    close(turnWise.returns[0]!, [0, 0, 10.38, 0, 10.4]);
    close(turnWise.valueMask[0]!, [0, 0, 1, 0, 1]);
  });

  test('rewardScale scales rewards; values must match the tokens', () => {
    expect(episodeSequence([multiTurn], [[9, 9, 0.5, 1, 2, 9, 4, 8]], 0.5).rewards).toEqual([0, 0, 0.25, 0, 5.2]);
    expect(() => episodeSequence([multiTurn], [[1, 2]])).toThrow(/Sequence 0 of trajectory t has 8 tokens and 2 values/);
  });
});

describe('ppoBatch', () => {
  test("trains on rollout's sequences: old log-probs and values from the policy, GAE over each episode's turns, back on their tokens", async () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 3 });
    const episodes = await createPolicyEpisodes(model, { envId: COLOUR_STEPS_ID, view: 'image', historyWindow: 0, maxTurns: 2 }, model);
    const agent = new MockAgent({ responses: [`<answer>${colourAt(4, 0)}</answer>`, '<answer>no</answer>'] });
    const batch = await episodes.play([4], { temperature: 1, seed: 0, agent });
    const before = tf.memory().numTensors;
    const { examples, statistics } = await ppoBatch(model, episodes, batch, { whiten: false });
    expect(tf.memory().numTensors).toBe(before);
    // Two turns, one sequence each (history window 0): reward 1 on turn 1's end, 0 on turn 2's.
    const sequences = episodes.sequences(batch.trajectories[0]!);
    expect(examples.map((example) => example.tokens)).toEqual(sequences.map((part) => part.inputIds));
    const expected = ppoAdvantages([episodeSequence(sequences, examples.map((example) => example.oldValues))], { whiten: false });
    const count = sequences[0]!.lossMask.filter((mask) => mask === 1).length;
    close(examples[0]!.advantages.filter((_, column) => sequences[0]!.lossMask[column] === 1), Array.from(expected.advantages[0]!.subarray(0, count)));
    close(examples[1]!.returns.filter((_, column) => sequences[1]!.lossMask[column] === 1), Array.from(expected.returns[0]!.subarray(count)));
    expect(examples[0]!.valueMask).toEqual(sequences[0]!.lossMask);
    // γ_token = λ = 1: every token of the last turn returns its reward (0), of the first 1 + 0.95·V(turn 2's end).
    close(examples[1]!.returns.filter((_, column) => sequences[1]!.lossMask[column] === 1), new Array(examples[1]!.lossMask.filter((mask) => mask === 1).length).fill(0));
    // Old log-probs are the policy's own on the played tokens.
    const fresh: number[][] = [];
    forEachForward(model, examples, (_, logProbs) => fresh.push(Array.from(logProbs)));
    expect(examples[0]!.oldLogProbs).toEqual(fresh[0]);
    expect(Number.isFinite(statistics.explainedVariance)).toBe(true);
    model.dispose();
  });
});

describe('advantageMask', () => {
  test("'generated' gives a response that never ended advantages (GAE carries values through it) but no gradient; 'loss' leaves it out", async () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 3 });
    const cut = '<answer>re';
    const responses = () => [{ outputs: [{ text: cut, finishReason: 'length' as const }] }, `<answer>${colourAt(4, 1)}</answer>`];
    const played = async (advantageMask: 'loss' | 'generated') => {
      const episodes = await createPolicyEpisodes(model, { envId: COLOUR_STEPS_ID, view: 'image', historyWindow: 0, maxTurns: 2, advantageMask }, model);
      const batch = await episodes.play([4], { temperature: 1, seed: 0, agent: new MockAgent({ responses: responses() }) });
      return { episodes, batch, sequences: episodes.sequences(batch.trajectories[0]!) };
    };
    const loss = await played('loss');
    const generated = await played('generated');
    const response = model.tokenizer.encode(cut);
    // Turn 1's response never ended: no loss either way; advantage estimation only with 'generated'.
    expect(loss.sequences[0]!.lossMask.every((mask) => mask === 0)).toBe(true);
    expect(loss.sequences[0]!.advantageMask.every((mask) => mask === 0)).toBe(true);
    expect(generated.sequences[0]!.lossMask.every((mask) => mask === 0)).toBe(true);
    expect(generated.sequences[0]!.advantageMask.reduce((sum, mask) => sum + mask, 0)).toBe(response.length + 1);
    // Turn 2 is the same sequence with the same masks either way.
    expect(generated.sequences[1]!.lossMask).toEqual(loss.sequences[1]!.lossMask);
    expect(generated.sequences[1]!.advantageMask).toEqual(loss.sequences[1]!.lossMask);

    const ppoLoss = await ppoBatch(model, loss.episodes, loss.batch, { whiten: false });
    const ppoGenerated = await ppoBatch(model, generated.episodes, generated.batch, { whiten: false });
    expect(ppoLoss.examples).toHaveLength(1);
    expect(ppoGenerated.examples).toHaveLength(2);
    // The unfinished response's tokens get GAE's advantages (γ = λ = 1: the episode's reward 1 minus
    // each token's value) and the critic trains there, but the policy loss sees no token of it.
    const first = ppoGenerated.examples[0]!;
    const marked = generated.sequences[0]!.advantageMask.flatMap((mask, column) => (mask === 1 ? [column] : []));
    for (const column of marked) expect(first.advantages[column]).toBeCloseTo(1 - first.oldValues[column]!, 5);
    expect(first.lossMask.every((mask) => mask === 0)).toBe(true);
    // GRPO trains only sequences with a loss: the same examples either way.
    expect((await policyExamples(generated.episodes, generated.batch, { skipUniformGroups: false })).length).toBe((await policyExamples(loss.episodes, loss.batch, { skipUniformGroups: false })).length);
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
    const episodes = await createPolicyEpisodes(model, { envId: COLOUR_STEPS_ID, view: 'image', historyWindow: 0, maxTurns: 2 }, model);
    const agent = new MockAgent({ responses: [`<answer>${colourAt(1, 0)}</answer>`, `<answer>${colourAt(1, 1)}</answer>`, '<answer>no</answer>', `<answer>${colourAt(2, 1)}</answer>`] });
    const batch = await episodes.play([1, 2], { temperature: 1, seed: 0, agent, concurrency: 1 });
    const before = tf.memory().numTensors;
    const { examples } = await ppoBatch(model, episodes, batch, { rewardScale: 0.1 });
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
        envId: COLOUR_STEPS_ID,
        view: 'image',
        historyWindow: 0,
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
