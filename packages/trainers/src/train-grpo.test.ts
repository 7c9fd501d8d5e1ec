import { MockAgent } from '@saccade/agents';
import { VisionLanguageModel } from '@saccade/models';
import type { RunEvent } from '@saccade/spec';
import { initTensor, tf } from '@saccade/tensor';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { colourAt, COLOUR_STEPS_ID, registerColourSteps } from '../test/colour-steps-env';
import { highEntropyMask, policyShardLoss, type PolicyExample, type PolicyLossContext } from './losses/policy-loss';
import { createPolicyEpisodes } from './policy-episodes';
import { grpoBatch, policyExamples, shuffleWithinGroups, trainGrpo, ungroundedAnswerTurns, variedGroups } from './train-grpo';
import { storedTrajectory, storedTurn } from '@saccade/core/testing';

const scratch = mkdtempSync(join(tmpdir(), 'saccade-grpo-'));
const episodeSettings = { envId: COLOUR_STEPS_ID, view: 'image' as const, historyWindow: 0, maxTurns: 2, maxTokens: 24 };

beforeAll(async () => {
  await initTensor();
  registerColourSteps();
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('policyExamples', () => {
  test("trains rollout's masked sequences: each turn of a group's episodes gets its episode's advantage on the response tokens; uniform groups are left out", async () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 0 });
    const episodes = await createPolicyEpisodes(model, episodeSettings, model);
    const right = (seed: number, turn: number): string => `<answer>${colourAt(seed, turn)}</answer>`;
    // Seed 1 played twice (one success, one miss on turn 2), seed 2 twice (both miss turn 1): scores 1, 0 | 0, 0.
    const agent = new MockAgent({ responses: [right(1, 0), right(1, 1), right(1, 0), '<answer>none</answer>', '<answer>none</answer>', right(2, 1), '<answer>x</answer>', right(2, 1)] });
    const batch = await episodes.play([1, 2], { groupSize: 2, temperature: 1, seed: 0, agent, concurrency: 1 });
    expect(batch.trajectories.map((trajectory) => trajectory.groupId)).toEqual(['s0-0', 's0-0', 's0-1', 's0-1']);
    const examples = await policyExamples(episodes, batch, { score: 'success' });
    // Group 0 only (group 1 is uniform), two turns each: ±1/std([1, 0]) = ±0.7071.
    expect(examples).toHaveLength(4);
    const tokenizer = model.tokenizer;
    const response = tokenizer.encode(right(1, 0));
    const prompt = [tokenizer.bosId, tokenizer.userId, tokenizer.encode('<image>')[0]!, ...new Array<number>(16).fill(tokenizer.imagePadId), tokenizer.endId, tokenizer.assistantId];
    expect(examples[0]!.tokens).toEqual([...prompt, ...response, tokenizer.endId]);
    expect(examples[0]!.lossMask).toEqual([...prompt.map(() => 0), ...response.map(() => 1), 1]);
    expect(examples[0]!.advantages.slice(prompt.length)).toEqual(new Array(response.length + 1).fill(0.5 / (Math.SQRT1_2 + 1e-6)));
    expect(examples[0]!.advantages.slice(0, prompt.length).every((value) => value === 0)).toBe(true);
    expect(examples[3]!.advantages.at(-1)).toBe(-0.5 / (Math.SQRT1_2 + 1e-6));
    expect(examples[0]!.oldLogProbs).toBeUndefined();
    expect(await policyExamples(episodes, batch, { score: 'success', skipUniformGroups: false })).toHaveLength(8);
    model.dispose();
  });
});

/** Seeds 1–3 played twice each by a scripted agent: right, right | wrong, wrong; right, wrong | wrong, wrong; right, wrong | wrong, right. */
async function playThreeGroups() {
  const model = VisionLanguageModel.create({ preset: 'tiny', seed: 0 });
  const episodes = await createPolicyEpisodes(model, episodeSettings, model);
  const right = (seed: number, turn: number): string => `<answer>${colourAt(seed, turn)}</answer>`;
  const wrong = '<answer>none</answer>';
  const responses = [right(1, 0), right(1, 1), wrong, wrong, right(2, 0), wrong, wrong, wrong, right(3, 0), wrong, wrong, right(3, 1)];
  const batch = await episodes.play([1, 2, 3], { groupSize: 2, temperature: 1, seed: 0, agent: new MockAgent({ responses }), concurrency: 1 });
  return { model, episodes, batch, right, wrong };
}

describe('grpoBatch', () => {
  test('reward-variance filtering keeps the most varied groups; over-turn masking drops episodes the turn cap cut; the statistics say so', async () => {
    // Returns per group (right answers): seed 1: 2 | 0 (std 1); seed 2: 1 | 0 (std 0.5); seed 3: 1 | 1 (uniform).
    const { model, episodes, batch, right, wrong } = await playThreeGroups();
    expect(batch.trajectories.map((trajectory) => trajectory.totalReward)).toEqual([2, 0, 1, 0, 1, 1]);
    const all = await grpoBatch(episodes, batch, { score: 'return' });
    expect(all.examples).toHaveLength(8);
    expect(all.statistics).toEqual({ uniformGroups: 1 / 3, trainedGroups: 2 / 3, scoreMean: 5 / 6, scoreStd: Math.sqrt(((2 - 5 / 6) ** 2 + 3 * (1 - 5 / 6) ** 2 + 2 * (5 / 6) ** 2) / 6), maskedTruncatedEpisodes: 0 });
    const top = await grpoBatch(episodes, batch, { score: 'return', rewardVarianceTopP: 0.3 });
    expect(top.statistics.trainedGroups).toBe(1 / 3);
    // Seed 1's group only: its two episodes' two turns.
    expect(top.examples).toHaveLength(4);
    expect(top.examples[0]!.advantages.at(-1)).toBeCloseTo(1 / (Math.SQRT2 + 1e-6), 6);
    await expect(grpoBatch(episodes, batch, { rewardVarianceTopP: 0 })).rejects.toThrow(/rewardVarianceTopP must be in \(0, 1\]; got 0/);

    // A turn cap of one: every episode is cut before the env ends it.
    const capped = await createPolicyEpisodes(model, { ...episodeSettings, maxTurns: 1 }, model);
    const cut = await capped.play([1, 2], { groupSize: 2, temperature: 1, seed: 0, agent: new MockAgent({ responses: [right(1, 0), wrong, right(2, 0), wrong] }), concurrency: 1 });
    expect(cut.trajectories.every((trajectory) => trajectory.truncated && !trajectory.terminated)).toBe(true);
    expect((await grpoBatch(capped, cut, { score: 'return' })).examples).toHaveLength(4);
    const masked = await grpoBatch(capped, cut, { score: 'return', maskTruncatedEpisodes: true });
    expect(masked.examples).toHaveLength(0);
    expect(masked.statistics.maskedTruncatedEpisodes).toBe(4);
    model.dispose();
  });
});

describe('shuffleScores (the null control)', () => {
  test('shuffles scores only among a group\'s episodes, the same way every time', () => {
    const keys = ['a', 'a', 'b', 'a', 'b', 'a', 'a', 'b'];
    const scores = [0, 1, 5, 2, 6, 3, 4, 7];
    const shuffled = [...scores];
    shuffleWithinGroups(shuffled, keys);
    const of = (values: number[], key: string) => values.filter((_, index) => keys[index] === key);
    expect(of(shuffled, 'a').toSorted()).toEqual([0, 1, 2, 3, 4]);
    expect(of(shuffled, 'b').toSorted()).toEqual([5, 6, 7]);
    expect(shuffled).not.toEqual(scores);
    const again = [...scores];
    shuffleWithinGroups(again, keys);
    expect(again).toEqual(shuffled);
  });

  test("grpoBatch trains each group on its own scores in another order; the batch's statistics are unchanged; GiGPO is refused", async () => {
    const { model, episodes, batch } = await playThreeGroups();
    const plain = await grpoBatch(episodes, batch, { score: 'return' });
    const control = await grpoBatch(episodes, batch, { score: 'return', shuffleScores: true });
    expect(control.statistics).toEqual(plain.statistics);
    const byGroup = (used: typeof plain.used) => {
      const groups: Record<string, typeof plain.used> = {};
      for (const episode of used) (groups[episode.trajectory.groupId!] ??= []).push(episode);
      return groups;
    };
    const plainGroups = byGroup(plain.used);
    const controlGroups = byGroup(control.used);
    for (const [group, members] of Object.entries(controlGroups)) {
      expect(members!.map((episode) => episode.score).toSorted()).toEqual(plainGroups[group]!.map((episode) => episode.score).toSorted());
    }
    // Each episode's advantage follows the score it was given, not what it did.
    const means: Record<string, number> = { 's0-0': 1, 's0-1': 0.5, 's0-2': 1 };
    for (const episode of control.used) expect(Math.sign(episode.advantage ?? 0)).toBe(Math.sign(episode.score! - means[episode.trajectory.groupId!]!));
    await expect(grpoBatch(episodes, batch, { shuffleScores: true, advantageEstimator: 'gigpo' })).rejects.toThrow(/shuffleScores is a control for GRPO/);
    model.dispose();
  });
});

describe('maskUngroundedAnswers', () => {
  test('an episode whose calls all missed the target keeps its call turns and loses its answer turns; a hit or an unscored call changes nothing', () => {
    const call = (hit?: boolean) => ({ toolCallCount: 1, toolCalls: [{ name: 'crop', ok: true, ...(hit === undefined ? {} : { hit }) }] });
    expect([...ungroundedAnswerTurns(storedTrajectory([storedTurn(call(false)), storedTurn(call(false)), storedTurn({})], 0))]).toEqual([2]);
    expect([...ungroundedAnswerTurns(storedTrajectory([storedTurn(call(false)), storedTurn(call(true)), storedTurn({})], 1))]).toEqual([]);
    expect([...ungroundedAnswerTurns(storedTrajectory([storedTurn(call()), storedTurn({})], 0))]).toEqual([]);
    expect([...ungroundedAnswerTurns(storedTrajectory([storedTurn({})], 0))]).toEqual([]);
  });

  test('grpoBatch drops the answer turn of an episode whose look missed and says how many it masked', async () => {
    const { model, episodes, batch } = await playThreeGroups();
    // Seed 1's first episode (return 2) looked on its first turn and missed; seed 2's first looked and hit.
    Object.assign(batch.trajectories[0]!.turns[0]!.info, { toolCalls: [{ name: 'crop', ok: true, hit: false }] });
    Object.assign(batch.trajectories[2]!.turns[0]!.info, { toolCalls: [{ name: 'crop', ok: true, hit: true }] });
    const plain = await grpoBatch(episodes, batch, { score: 'return' });
    const masked = await grpoBatch(episodes, batch, { score: 'return', maskUngroundedAnswers: true });
    expect(plain.statistics.maskedUngroundedAnswers).toBeUndefined();
    expect(masked.statistics.maskedUngroundedAnswers).toBe(1);
    // One sequence fewer: the missed episode's second turn (its answer after the look).
    expect(masked.examples).toHaveLength(plain.examples.length - 1);
    const [missed] = masked.used;
    expect(missed!.sequences).toHaveLength(1);
    expect(missed!.sequences[0]!.sequence.turnIds.filter((turn, position) => missed!.sequences[0]!.sequence.lossMask[position] === 1).every((turn) => turn === 0)).toBe(true);
    expect(masked.used[2]!.sequences).toHaveLength(plain.used[2]!.sequences.length);
    model.dispose();
  });
});

describe('GiGPO (advantageEstimator: gigpo)', () => {
  test("each turn's tokens get the episode's advantage plus ω × its step advantage among the group's turns on the same state; a group whose scores tie but whose turns differ is trained", async () => {
    // Turn rewards per group (each turn of a seed shows the same square in every episode):
    // seed 1: [1, 1] | [0, 0]; seed 2: [1, 0] | [0, 0]; seed 3: [1, 0] | [0, 1] (returns tie at 1).
    const { model, episodes, batch } = await playThreeGroups();
    const gigpo = await grpoBatch(episodes, batch, { score: 'return', normalizeStd: false, advantageEstimator: 'gigpo', stepDiscount: 0.5 });
    // With γ 0.5 the turns' returns are seed 1: [1.5, 1] | [0, 0]; seed 2: [1, 0] | [0, 0]; seed 3: [1, 0] | [0.5, 1].
    // Step groups (a seed's turn 0, its turn 1), centred: seed 1 ±0.75, ±0.5; seed 2 ±0.5, 0; seed 3 ±0.25, ∓0.5.
    // Episode advantages (Dr. GRPO): ±1, ±0.5, 0. Sum per turn, episode by episode:
    const expected = [[1.75, 1.5], [-1.75, -1.5], [1, 0.5], [-1, -0.5], [0.25, -0.5], [-0.25, 0.5]];
    expect(gigpo.examples).toHaveLength(12);
    gigpo.examples.forEach((example, index) => {
      const trained = example.advantages.filter((_, position) => example.lossMask[position] === 1);
      const value = expected[Math.floor(index / 2)]![index % 2]!;
      expect(trained.every((advantage) => Math.abs(advantage - value) < 1e-12), `example ${index}: ${trained[0]} ≠ ${value}`).toBe(true);
      expect(example.advantages.filter((_, position) => example.lossMask[position] === 0).every((advantage) => advantage === 0)).toBe(true);
    });
    expect(gigpo.statistics).toMatchObject({ uniformGroups: 0, trainedGroups: 1, stepGroupSize: 2, variedStepGroups: 5 / 6 });
    // Plain GRPO leaves seed 3's group out (its returns tie), and ω 0 is plain GRPO.
    expect((await grpoBatch(episodes, batch, { score: 'return', normalizeStd: false })).examples).toHaveLength(8);
    const weightless = await grpoBatch(episodes, batch, { score: 'return', normalizeStd: false, advantageEstimator: 'gigpo', stepAdvantageWeight: 0 });
    expect(weightless.examples[0]!.advantages.at(-1)).toBe(1);
    // With 'success' the outcome is the step reward, on the last turn: seed 1's turns 0.95, 1 | 0, 0.
    const success = await grpoBatch(episodes, batch, { score: 'success', normalizeStd: false, advantageEstimator: 'gigpo' });
    expect(success.examples.map((example) => example.advantages.at(-1))).toEqual([0.5 + 0.475, 0.5 + 0.5, -0.5 - 0.475, -0.5 - 0.5]);
    model.dispose();
  });
});

describe('dynamic sampling (maxSampledBatches)', () => {
  test('variedGroups names the groups that carry signal (scores that differ; with GiGPO, step advantages too), in batch order, failed episodes left out', async () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 0 });
    const episodes = await createPolicyEpisodes(model, episodeSettings, model);
    const right = (seed: number, turn: number): string => `<answer>${colourAt(seed, turn)}</answer>`;
    const wrong = '<answer>none</answer>';
    // Returns: seed 1: 2 | 0; seed 2: 1 | 1 (uniform); seed 3: 0 | 1.
    const responses = [right(1, 0), right(1, 1), wrong, wrong, right(2, 0), wrong, wrong, right(2, 1), wrong, wrong, right(3, 0), wrong];
    const batch = await episodes.play([1, 2, 3], { groupSize: 2, temperature: 1, seed: 0, agent: new MockAgent({ responses }), concurrency: 1 });
    expect(batch.trajectories.map((trajectory) => trajectory.totalReward)).toEqual([2, 0, 1, 1, 0, 1]);
    expect(variedGroups(batch, { score: 'return' })).toEqual(['s0-0', 's0-2']);
    // By success (both turns right): only seed 1's group differs.
    expect(variedGroups(batch, { score: 'success' })).toEqual(['s0-0']);
    // GiGPO: seed 2's returns tie, but its turns' returns differ on the same squares ([1, 0] | [0, 1]).
    expect(variedGroups(batch, { score: 'return', advantageEstimator: 'gigpo' })).toEqual(['s0-0', 's0-1', 's0-2']);
    expect(variedGroups(batch, { score: 'success', advantageEstimator: 'gigpo' })).toEqual(['s0-0']);
    model.dispose();
  });

  test('while every group is uniform it plays its most batches a step, reports them, and trains on nothing', async () => {
    // An untrained policy never succeeds: every group scores 0 by success.
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 0 });
    const events: RunEvent[] = [];
    await trainGrpo(
      model,
      {
        ...episodeSettings,
        maxTokens: 8,
        trainSeeds: { start: 1000, count: 50 },
        evalSeeds: { start: 0, count: 2 },
        steps: 1,
        promptsPerStep: 2,
        groupSize: 2,
        score: 'success',
        maxSampledBatches: 3,
        learningRate: 1e-3,
        evalEvery: 10,
        seed: 0,
        workers: 0,
      },
      (event) => events.push(event),
    );
    const rollout = events.find((event) => event.type === 'rollout-end');
    expect(rollout).toMatchObject({ episodes: 12, metrics: { sampledBatches: 3, uniformGroups: 1, trainedSequences: 0 } });
    // The extra batches' episodes have ids of their own (apart from the evaluation's, e1-…).
    const started = events.flatMap((event) => (event.type === 'episode-start' && event.step === 1 ? [event.episodeId.split('-')[0]] : []));
    expect(new Set(started)).toEqual(new Set(['s1', 's1b1', 's1b2', 'e1']));
    model.dispose();
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

    // Dr. GRPO's aggregation: the token sum over a constant (here 100 per sequence), not the token count.
    const summed = policyShardLoss(model, [example], { ...context, aggregation: 'token-sum-norm', lengthNormalizer: 100, tokenCount: response.length, sequenceCount: 1 });
    expect(summed.loss.dataSync()[0]).toBeCloseTo((-1.5 * response.length) / 100, 5);
    tf.dispose([summed.loss, ...Object.values(summed.metrics ?? {})]);

    // The sampler's log-probs as the old ones: logprobGap is the mean |Δ| over the trained tokens.
    const sampled = policyShardLoss(model, [{ ...example, oldLogProbs: current.map((value) => value - 0.25), sampledLogProbs: true }], {
      ...context,
      tokenCount: response.length,
      sequenceCount: 1,
      sampledTokenCount: response.length,
    });
    expect(sampled.metrics?.['logprobGap']?.dataSync()[0]).toBeCloseTo(0.25, 5);
    tf.dispose([sampled.loss, ...Object.values(sampled.metrics ?? {})]);
    model.dispose();
  });

  test('without old log-probs (the first update on the rollout\'s weights) the ratio is 1 and the gradient is the policy gradient', () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 2 });
    const prompt = model.tokenizer.encode('Hi');
    const response = model.tokenizer.encode('<answer>Up</answer>');
    const tokens = [...prompt, ...response];
    const lossMask = tokens.map((_, index) => (index >= prompt.length ? 1 : 0));
    const example: PolicyExample = { tokens, images: [], lossMask, advantages: lossMask.map((mask) => mask * 1.5) };
    const inputs = model.prepare([example], 'right');
    const current = tf.tidy(() => Array.from(model.logProbsAndValues(inputs).logProbs.dataSync()));
    inputs.dispose();
    const shardContext = { ...context, tokenCount: response.length, sequenceCount: 1 };
    const gradients = (withOld: boolean): number[] =>
      tf.tidy(() => {
        const { grads, value } = tf.variableGrads(() => policyShardLoss(model, [withOld ? { ...example, oldLogProbs: current } : example], shardContext).loss, model.trainableVariables);
        expect(value.dataSync()[0]).toBeCloseTo(-1.5, 4);
        return Object.keys(grads)
          .sort()
          .flatMap((name) => Array.from(grads[name]!.dataSync()).slice(0, 4));
      });
    const onPolicy = gradients(false);
    gradients(true).forEach((value, index) => expect(onPolicy[index]).toBeCloseTo(value, 5));
    expect(onPolicy.some((value) => value !== 0)).toBe(true);
    expect(() => policyShardLoss(model, [example, { ...example, oldLogProbs: current }], shardContext)).toThrow(/old log-probs on every example of a batch or on none/);
    model.dispose();
  });

  test("topEntropyQuantile keeps the policy gradient on the shard's top-ρ entropy tokens only (the quantile interpolated as torch.quantile)", () => {
    // Column 0 is never trained; the trained entropies are 0.5, 0.9 and 0.3.
    const entropies = tf.tensor2d([[0.1, 0.5, 0.9, 0.3]]);
    const weights = new Float32Array([0, 1, 1, 1]);
    expect(Array.from(highEntropyMask(entropies, weights, 0.5).dataSync())).toEqual([0, 1, 1, 0]);
    // ρ 0.2: the 0.8 quantile of [0.3, 0.5, 0.9] is 0.5 + 0.6 × 0.4 = 0.74.
    expect(Array.from(highEntropyMask(entropies, weights, 0.2).dataSync())).toEqual([0, 0, 1, 0]);
    expect(Array.from(highEntropyMask(entropies, weights, 1).dataSync())).toEqual([0, 1, 1, 1]);
    expect(() => highEntropyMask(entropies, weights, 0)).toThrow(/topEntropyQuantile must be in \(0, 1\]; got 0/);
    entropies.dispose();

    // On a real shard: the loss with ρ equals the full loss with the advantages of the low-entropy tokens set to 0.
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 2 });
    const prompt = model.tokenizer.encode('Hi');
    const response = model.tokenizer.encode('<answer>Up</answer>');
    const tokens = [...prompt, ...response];
    const lossMask = tokens.map((_, index) => (index >= prompt.length ? 1 : 0));
    const advantages = lossMask.map((mask, index) => mask * (index % 2 === 0 ? 1.5 : -0.5));
    const example: PolicyExample = { tokens, images: [], lossMask, advantages };
    const inputs = model.prepare([example], 'right');
    const entropyRow = tf.tidy(() => Array.from(model.logProbsAndValues(inputs).entropies.dataSync()));
    inputs.dispose();
    const trained = entropyRow.filter((_, index) => lossMask[index] === 1).sort((a, b) => a - b);
    const position = 0.75 * (trained.length - 1);
    const threshold = trained[Math.floor(position)]! + (trained[Math.ceil(position)]! - trained[Math.floor(position)]!) * (position - Math.floor(position));
    const kept = lossMask.map((mask, index): number => (mask === 1 && entropyRow[index]! >= threshold ? 1 : 0));
    const shardContext = { ...context, tokenCount: response.length, sequenceCount: 1 };
    const masked = policyShardLoss(model, [example], { ...shardContext, topEntropyQuantile: 0.25 });
    const reference = policyShardLoss(model, [{ ...example, advantages: advantages.map((value, index) => value * kept[index]!) }], shardContext);
    expect(masked.loss.dataSync()[0]).toBeCloseTo(reference.loss.dataSync()[0]!, 6);
    const full = policyShardLoss(model, [example], shardContext);
    expect(masked.loss.dataSync()[0]).not.toBeCloseTo(full.loss.dataSync()[0]!, 3);
    expect(masked.metrics?.['highEntropyTokens']?.dataSync()[0]).toBeCloseTo(kept.reduce((sum, value) => sum + value, 0) / response.length, 6);
    tf.dispose([masked.loss, reference.loss, full.loss, ...[masked, reference, full].flatMap((output) => Object.values(output.metrics ?? {}))]);
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
  test('plays groups through the rollout manager, updates, evaluates, checkpoints, and leaks no tensors', async () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 0 });
    const events: RunEvent[] = [];
    const before = tf.memory().numTensors;
    const result = await trainGrpo(
      model,
      {
        ...episodeSettings,
        maxTokens: 12,
        trainSeeds: { start: 1000, count: 50 },
        evalSeeds: { start: 0, count: 4 },
        steps: 2,
        promptsPerStep: 2,
        groupSize: 3,
        learningRate: 1e-3,
        skipUniformGroups: false,
        klCoefficient: 0.01,
        epochs: 2,
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
    // At most 2 turns an episode, each its own sequence (history window 0); unfinished responses carry no loss.
    for (const rollout of rollouts) expect(rollout.metrics['trainedSequences']).toBeLessThanOrEqual(12);
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

  test("warmupSteps: the rate rises linearly from the phase's start, and a warm-up step trains exactly as that rate does", async () => {
    const run = async (settings: { learningRate: number; warmupSteps?: number; startStep?: number; phaseStart?: number; steps: number }) => {
      const model = VisionLanguageModel.create({ preset: 'tiny', seed: 0 });
      const events: RunEvent[] = [];
      await trainGrpo(
        model,
        { ...episodeSettings, maxTokens: 8, trainSeeds: { start: 1000, count: 50 }, evalSeeds: { start: 0, count: 1 }, promptsPerStep: 2, groupSize: 2, skipUniformGroups: false, evalEvery: 100, seed: 0, workers: 0, ...settings },
        (event) => events.push(event),
      );
      const weights = model.getWeights();
      model.dispose();
      return { weights, rates: events.flatMap((event) => (event.type === 'update-end' ? [event.metrics['learningRate']] : [])) };
    };
    const warm = await run({ learningRate: 1e-3, warmupSteps: 4, steps: 1 });
    const plain = await run({ learningRate: 2.5e-4, steps: 1 });
    expect(warm.rates).toEqual([2.5e-4]);
    expect(plain.rates).toEqual([2.5e-4]);
    for (const [name, values] of plain.weights) expect(warm.weights.get(name)).toEqual(values);
    // A phase resumed at step 2 that began at step 0 goes on with its third warm-up step, then the full rate.
    expect((await run({ learningRate: 1e-3, warmupSteps: 3, startStep: 2, phaseStart: 0, steps: 4 })).rates).toEqual([1e-3, 1e-3]);
    expect((await run({ learningRate: 1e-3, warmupSteps: 4, startStep: 2, phaseStart: 0, steps: 3 })).rates).toEqual([7.5e-4]);
  });
});
