import { VisionLanguageModel, type ModelConfigOverrides } from '@saccade/models';
import { initTensor } from '@saccade/tensor';
import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, expect, test } from 'vitest';
import { registerRetry, RETRY_ID } from '../test/retry-env';
import { createPolicyEpisodes } from './policy-episodes';
import { checkLogprobGap, samplingDistribution } from './policy-training';
import { trainGrpo } from './train-grpo';

beforeAll(async () => {
  await initTensor();
  registerRetry();
});

// The model configs the shipped recipes train (apps/runner/recipes): the default run's is the small
// preset; the visual-search recipes' add the pixel stem, the grid pointer and a readout ('conv' for
// targets anywhere, 'pointer' for the grid-centred task); the look-alikes example's, a convolutional stem.
const CONFIGS: [string, ModelConfigOverrides][] = [
  ['the default run', {}],
  ['the visual-search recipe', { imageSize: 128, patchSize: 16, vision: { stem: { channels: 16, pool: 4, pooling: 'max' }, grid: null, pointer: true, readout: 'conv' } }],
  ['the look-alikes search (pointerImage first)', { imageSize: 128, patchSize: 16, vision: { stem: { channels: 16, pool: 4, pooling: 'max' }, grid: null, pointer: true, readout: 'conv', pointerImage: 'first' } }],
  ['the look-alikes example (apps/runner/examples/visual-search-lookalikes.yaml: a 5 × 5 stem, inhibition of return)', { imageSize: 128, patchSize: 16, vision: { stem: { channels: 16, pool: 4, pooling: 'max', kernel: 5 }, grid: null, pointer: true, readout: 'conv', pointerImage: 'first', inhibitionOfReturn: true } }],
  ['the visual-search-grid recipe', { imageSize: 128, patchSize: 16, vision: { stem: { channels: 16, pool: 4, pooling: 'max' }, grid: null, pointer: true, readout: 'pointer' } }],
];

// Untrained, the model writes noise: stopping at any of ten letters ends most responses within the
// token budget, so that most turns are trained and the episodes run to the turn cap.
const STOP = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];

for (const [name, config] of CONFIGS) {
  test(`${name}'s model: every trained token's recorded log-prob equals the trainer's, in episodes longer than the context, forced prefixes included`, async () => {
    const model = VisionLanguageModel.create({ preset: 'small', seed: 3, config });
    const temperature = 0.7;
    const episodes = await createPolicyEpisodes(
      model,
      // From the fifth answer on the env forces '<answer>': those turns' sampled tokens continue it.
      { envId: RETRY_ID, envOptions: { turns: 7, imageSize: config.imageSize ?? 64, forcedAnswerFrom: 4 }, maxTurns: 7, view: 'full', historyWindow: 6, maxTokens: 96, stop: STOP },
      model,
    );
    const batch = await episodes.play([1, 2, 3, 4], { temperature, seed: 5 });
    const sampling = samplingDistribution(model, temperature);
    let compared = 0;
    let largest = 0;
    let cutPrompts = 0;
    let splitEpisodes = 0;
    let forcedTurns = 0;
    for (const trajectory of batch.trajectories) {
      expect(trajectory.error).toBeUndefined();
      forcedTurns += trajectory.turns.filter((turn) => turn.forcedPrefix === '<answer>' && turn.prompt !== undefined && turn.action.startsWith('<answer>')).length;
      cutPrompts += trajectory.turns.filter((turn) => (turn.prompt?.truncatedTokens ?? 0) > 0).length;
      const sequences = episodes.sequences(trajectory);
      if (sequences.length > 1) splitEpisodes++;
      for (const sequence of sequences) {
        expect(sequence.inputIds.length).toBeLessThanOrEqual(model.config.maxSequenceLength);
        const inputs = model.prepare([await episodes.modelSequence(sequence, batch.images)], 'right');
        const logProbs = tf.tidy(() => model.logProbsAndValues(inputs, { entropies: false, sampling }).logProbs.dataSync());
        inputs.dispose();
        // Each turn's trained tokens, in order, against what the sampler recorded for that turn.
        const seen = new Map<number, number>();
        sequence.lossMask.forEach((mask, position) => {
          if (mask !== 1) return;
          const turn = sequence.turnIds[position]!;
          const index = seen.get(turn) ?? 0;
          seen.set(turn, index + 1);
          const recorded = trajectory.turns[turn]!.logprobs![index]!;
          expect(sequence.inputIds[position]).toBe(trajectory.turns[turn]!.tokens![index]);
          largest = Math.max(largest, Math.abs(logProbs[position]! - recorded));
          compared++;
        });
      }
    }
    // The episodes outgrew the context: prompts were cut, and their episodes split where the sampler cut.
    expect(cutPrompts).toBeGreaterThan(0);
    expect(splitEpisodes).toBeGreaterThan(0);
    expect(forcedTurns).toBeGreaterThan(0);
    expect(compared).toBeGreaterThan(100);
    expect(largest).toBeLessThan(1e-4);
    model.dispose();
  });
}

test('a GRPO step measures the sampler–trainer gap on its own update (logprobGap), and it is ~0', async () => {
  const model = VisionLanguageModel.create({ preset: 'tiny', seed: 2 });
  const updates: Record<string, number>[] = [];
  await trainGrpo(
    model,
    {
      envId: RETRY_ID,
      envOptions: { turns: 4 },
      maxTurns: 4,
      view: 'full',
      maxTokens: 24,
      stop: STOP,
      trainSeeds: { start: 100, count: 50 },
      evalSeeds: { start: 0, count: 2 },
      steps: 2,
      promptsPerStep: 2,
      groupSize: 4,
      learningRate: 1e-3,
      temperature: 0.8,
      evalEvery: 100,
      seed: 0,
      workers: 0,
      // Two updates a step: the old log-probs are the sampler's, and the first update checks them.
      miniBatches: 2,
      // The untrained policy never answers right: keep its groups so that the step has tokens to score.
      skipUniformGroups: false,
    },
    (event) => {
      if (event.type === 'update-end') updates.push(event.metrics);
    },
  );
  expect(updates).toHaveLength(2);
  for (const metrics of updates) {
    expect(metrics['logprobGap']).toBeGreaterThanOrEqual(0);
    expect(metrics['logprobGap']).toBeLessThan(1e-4);
    expect(metrics['approxKl']).toBeGreaterThanOrEqual(0);
    expect(metrics['entropy']).toBeGreaterThan(0);
  }
  model.dispose();
});

test('a gap past the threshold stops the run with an error that says what differs', () => {
  expect(() => checkLogprobGap(3, { logprobGap: 0.2 }, 1e-3)).toThrow(/Step 3: the trainer's log-probs of the sampled tokens differ from the sampler's by 2\.00e-1 nats on average \(at most 0\.001 expected\)/);
  expect(() => checkLogprobGap(3, { logprobGap: 5e-7 }, 1e-3)).not.toThrow();
  expect(() => checkLogprobGap(3, {}, 1e-3)).not.toThrow();
  expect(() => checkLogprobGap(3, { logprobGap: 0.2 }, Infinity)).not.toThrow();
});
