import { VisionLanguageModel } from '@saccade/models';
import type { RunEvent } from '@saccade/spec';
import { initTensor } from '@saccade/tensor';
import { beforeAll, describe, expect, test } from 'vitest';
import { COLOUR_STEPS_ID, registerColourSteps } from '../test/colour-steps-env';
import { createHeldOutEvaluator, sampledMetrics } from './held-out-evaluator';
import { createPolicyEpisodes, type PlayedBatch } from './policy-episodes';

const episodeSettings = { envId: COLOUR_STEPS_ID, view: 'image' as const, historyWindow: 0, maxTurns: 2, maxTokens: 12 };

beforeAll(async () => {
  await initTensor();
  registerColourSteps();
});

describe('createHeldOutEvaluator with evalSampling', () => {
  test('a sampled evaluation follows the greedy one: samples × seeds episodes at the temperature, the same draws at every step, its metrics as sampled<Metric>', async () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 0 });
    const episodes = await createPolicyEpisodes(model, episodeSettings, model);
    const played: PlayedBatch[] = [];
    const recording = { ...episodes, play: async (...args: Parameters<typeof episodes.play>) => { const batch = await episodes.play(...args); played.push(batch); return batch; } };
    const events: RunEvent[] = [];
    const { evaluations, evaluate } = createHeldOutEvaluator(recording, { evalSeeds: { start: 0, count: 3 }, evalSampling: { temperature: 1.5, samples: 4 } }, () => 1, (event) => events.push(event));
    const greedy = await evaluate(5);
    await evaluate(6);

    // Greedy: one episode a seed, ids e5-…; sampled: four a seed, ids v5-…, in groups of the seed.
    expect(played.map((batch) => batch.trajectories.length)).toEqual([3, 12, 3, 12]);
    expect(played[0]!.trajectories.every((trajectory) => trajectory.id.startsWith('e5-'))).toBe(true);
    expect(played[1]!.trajectories.every((trajectory) => trajectory.id.startsWith('v5-'))).toBe(true);
    expect(new Set(played[1]!.trajectories.map((trajectory) => trajectory.groupId)).size).toBe(3);
    // The same weights and the same sampling seed: step 6 draws what step 5 drew.
    expect(played[3]!.trajectories.map((trajectory) => trajectory.turns.map((turn) => turn.action))).toEqual(played[1]!.trajectories.map((trajectory) => trajectory.turns.map((turn) => turn.action)));
    // Sampling at temperature 1.5 from an untrained model: the samples of a seed differ.
    expect(new Set(played[1]!.trajectories.slice(0, 4).map((trajectory) => trajectory.turns[0]!.action)).size).toBeGreaterThan(1);

    const [first] = evaluations;
    expect(first).toMatchObject({ step: 5, episodes: 3, success: greedy.success, sampled: { episodes: 12, temperature: 1.5, samples: 4 } });
    const event = events[0]!;
    expect(event.type).toBe('eval-end');
    const metrics = (event as Extract<RunEvent, { type: 'eval-end' }>).metrics;
    expect(metrics).toMatchObject({ episodes: 3, sampledEpisodes: 12, sampledTemperature: 1.5, sampledSamples: 4, seconds: 1 });
    expect(metrics['sampledSuccess']).toBe(first!.sampled!.success);
    model.dispose();
  });

  test('sampledMetrics names each metric sampled<Metric>, NaN looking metrics left out', () => {
    const looking = { toolCallsPerEpisode: 1, invalidCallRate: 0, targetHitRate: 0.5, successWithHit: 1, successWithoutHit: Number.NaN, callsPerSolvedEpisode: 1 };
    expect(sampledMetrics({ episodes: 8, success: 0.5, meanReward: 0.5, formatRate: 1, meanTurns: 2, looking, temperature: 0.7, samples: 4 })).toEqual({
      sampledEpisodes: 8,
      sampledSuccess: 0.5,
      sampledMeanReward: 0.5,
      sampledFormatRate: 1,
      sampledMeanTurns: 2,
      sampledToolCallsPerEpisode: 1,
      sampledInvalidCallRate: 0,
      sampledTargetHitRate: 0.5,
      sampledSuccessWithHit: 1,
      sampledCallsPerSolvedEpisode: 1,
      sampledTemperature: 0.7,
      sampledSamples: 4,
    });
  });

  test('refuses a temperature of 0 or samples that are not a positive integer, saying what it expected', async () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 0 });
    const episodes = await createPolicyEpisodes(model, episodeSettings, model);
    const create = (evalSampling: { temperature: number; samples: number }) => () => createHeldOutEvaluator(episodes, { evalSeeds: { start: 0, count: 1 }, evalSampling }, () => 0, () => {});
    expect(create({ temperature: 0, samples: 4 })).toThrow(/evalSampling.temperature: expected a number > 0 .*got 0/);
    expect(create({ temperature: 0.7, samples: 2.5 })).toThrow(/evalSampling.samples: expected an integer ≥ 1; got 2.5/);
    model.dispose();
  });
});
