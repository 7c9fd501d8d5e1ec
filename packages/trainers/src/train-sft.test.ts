import { VisionLanguageModel } from '@saccade/models';
import type { RunEvent } from '@saccade/spec';
import type { EpisodeContext } from '@saccade/rollout';
import { initTensor, tf } from '@saccade/tensor';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { COLOUR_STEPS_ID, registerColourSteps } from '../test/colour-steps-env';
import { evaluatePolicy } from './evaluate-policy';
import { createPolicyEpisodes } from './policy-episodes';
import { trainSft } from './train-sft';

const scratch = mkdtempSync(join(tmpdir(), 'saccade-sft-'));
const episodeSettings = { envId: COLOUR_STEPS_ID, view: 'image' as const, historyWindow: 0, maxTurns: 2, maxTokens: 24 };

beforeAll(async () => {
  await initTensor();
  registerColourSteps();
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('trainSft', () => {
  test("learns from the oracle's episodes (played by the rollout manager), evaluates held-out seeds, checkpoints, leaks no tensors", async () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 0 });
    const events: RunEvent[] = [];
    const before = tf.memory().numTensors;
    const result = await trainSft(
      model,
      {
        ...episodeSettings,
        trainSeeds: { start: 1000, count: 12 },
        evalSeeds: { start: 0, count: 6 },
        steps: 40,
        batchSize: 8,
        learningRate: 1e-2,
        warmupSteps: 2,
        evalEvery: 20,
        seed: 0,
        workers: 0,
        checkpointFolder: scratch,
      },
      (event) => events.push(event),
    );
    expect(tf.memory().numTensors).toBe(before);
    expect(result.steps).toBe(40);
    // 12 oracle episodes of 2 turns, each turn its own sequence (history window 0).
    expect(events.find((event) => event.type === 'log' && event.message.endsWith('demonstrations ready'))).toMatchObject({ data: { examples: 24 } });
    const losses = events.flatMap((event) => (event.type === 'update-end' ? [event.metrics.loss!] : []));
    expect(losses).toHaveLength(40);
    expect(losses.at(-1)!).toBeLessThan(losses[0]! / 4);
    expect(result.evaluations.map((evaluation) => [evaluation.step, evaluation.episodes])).toEqual([
      [0, 6],
      [20, 6],
      [40, 6],
    ]);
    expect(result.evaluations.at(-1)!.success).toBe(1);
    // The episodes' progress reaches the run's events: the evaluations' first episodes, turn by turn.
    expect(events.some((event) => event.type === 'turn-end' && event.step === 40)).toBe(true);
    expect(events.filter((event) => event.type === 'checkpoint-saved')).toHaveLength(1);
    expect(readdirSync(join(scratch, '40')).sort()).toEqual(expect.arrayContaining(['config.json', 'manifest.json', 'weights.bin']));
    model.dispose();
  });

  test('plays only the seeds its steps can read: the first steps × batch of the range, with progress; the same set again on resume', async () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 0 });
    const played: number[] = [];
    const { createOracleAgent } = await import('@saccade/agents');
    const settings = {
      ...episodeSettings,
      trainSeeds: { start: 1000, count: 8000 },
      evalSeeds: { start: 0, count: 2 },
      steps: 3,
      batchSize: 5,
      learningRate: 1e-3,
      warmupSteps: 0,
      evalEvery: 3,
      seed: 0,
      workers: 0,
      // The oracle, counting the seeds it is asked to play.
      demonstrationAgent: ({ env, prompt }: EpisodeContext) => {
        played.push(prompt.seed!);
        return createOracleAgent({ env });
      },
    };
    const events: RunEvent[] = [];
    await trainSft(model, settings, (event) => events.push(event));
    // 15 seeds (3 steps × 5), not the 8,000 of the range: 30 examples, one a turn.
    expect(played.sort((a, b) => a - b)).toEqual(Array.from({ length: 15 }, (_, index) => 1000 + index));
    const ready = events.find((event) => event.type === 'log' && event.message.endsWith('demonstrations ready'));
    expect(ready).toMatchObject({ data: { examples: 30 } });
    const progress = events.flatMap((event) => (event.type === 'log' && /^(playing|demonstrations: )/.test(event.message) ? [event.message] : []));
    expect(progress).toEqual([`playing the demonstration agent on 15 of the 8000 training seeds of ${COLOUR_STEPS_ID} for demonstrations`, 'demonstrations: 15 of 15 seeds played, 30 examples']);
    model.dispose();
  });

  test('demonstrationSamples (best-of-n): each seed is played again until an episode succeeds, up to n tries; seeds with none are left out and counted', async () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 0 });
    const { createOracleAgent } = await import('@saccade/agents');
    const tries: [number, number][] = [];
    // The oracle from the (seed % 3)-th attempt on, a wrong colour before: seeds 1001 and 1004 would need a third try.
    const demonstrationAgent = ({ env, prompt }: EpisodeContext, attempt: number) => {
      tries.push([prompt.seed!, attempt]);
      const oracle = createOracleAgent({ env });
      return attempt >= prompt.seed! % 3 ? oracle : { ...oracle, act: async () => ({ outputs: [{ text: '<answer>purple</answer>', finishReason: 'stop' as const }] }) };
    };
    const events: RunEvent[] = [];
    const settings = { ...episodeSettings, trainSeeds: { start: 1000, count: 100 }, evalSeeds: { start: 0, count: 1 }, steps: 2, batchSize: 3, learningRate: 1e-3, warmupSteps: 0, evalEvery: 2, seed: 0, workers: 0 };
    await trainSft(model, { ...settings, demonstrationAgent, demonstrationSamples: 2 }, (event) => events.push(event));
    model.dispose();
    // Seeds 1000–1005: 1002 and 1005 succeed at once, 1000 and 1003 at the second try, 1001 and 1004 never.
    expect(tries.sort((a, b) => a[0] - b[0] || a[1] - b[1])).toEqual([[1000, 0], [1000, 1], [1001, 0], [1001, 1], [1002, 0], [1003, 0], [1003, 1], [1004, 0], [1004, 1], [1005, 0]]);
    const messages = events.flatMap((event) => (event.type === 'log' ? [event.message] : []));
    expect(messages).toEqual(
      expect.arrayContaining([
        `playing the demonstration agent on 6 of the 100 training seeds of ${COLOUR_STEPS_ID} for demonstrations (best of 2: the first success of each seed)`,
        'best of 2: 4 of 6 seeds kept a successful episode (10 episodes played); 2 had none and are left out',
        '8 demonstrations ready',
      ]),
    );
  });

  test('maskMissedLooks leaves the turns whose looks all missed out of the loss, and says how many', async () => {
    const { registerEnv } = await import('@saccade/core');
    const { ColourStepsEnv } = await import('../test/colour-steps-env');
    // The first turn of each episode reports a look (the tool-use wrapper's call records): on odd seeds it missed the target.
    class LookingColourSteps extends ColourStepsEnv {
      #seed = 0;
      #turn = 0;
      override async reset(options: { seed?: number } = {}) {
        this.#seed = options.seed ?? 0;
        this.#turn = 0;
        return super.reset(options);
      }
      override async step(action: string) {
        const result = await super.step(action);
        const turn = this.#turn++;
        return turn === 0 ? { ...result, info: { ...result.info, toolCalls: [{ name: 'crop', ok: true, hit: this.#seed % 2 === 0 }] } } : result;
      }
    }
    registerEnv({ id: 'test/LookingColourSteps-v1', create: () => new LookingColourSteps(), maxTurns: 2 }, { override: true });
    const ready = async (maskMissedLooks: boolean) => {
      const model = VisionLanguageModel.create({ preset: 'tiny', seed: 0 });
      const events: RunEvent[] = [];
      const settings = { ...episodeSettings, envId: 'test/LookingColourSteps-v1', trainSeeds: { start: 1000, count: 100 }, evalSeeds: { start: 0, count: 1 } };
      await trainSft(model, { ...settings, steps: 3, batchSize: 4, learningRate: 1e-3, warmupSteps: 0, evalEvery: 3, seed: 0, workers: 0, maskMissedLooks }, (event) => events.push(event));
      model.dispose();
      return events.find((event) => event.type === 'log' && / demonstrations ready/.test(event.message)) as { message: string; data: unknown };
    };
    // 12 episodes of 2 turns, a sequence a turn (history window 0): the 6 odd seeds' first turns have no trained token left.
    expect(await ready(false)).toMatchObject({ message: '24 demonstrations ready', data: { examples: 24 } });
    expect(await ready(true)).toMatchObject({ message: '18 demonstrations ready (6 missed looks left out of the loss)', data: { examples: 18, maskedMissedLooks: 6 } });
  });

  test("says how many demonstrations were cut on the left to fit the model's context (a cut drops the episode's first image)", async () => {
    const ready = async (maxSequenceLength: number) => {
      const model = VisionLanguageModel.create({ preset: 'tiny', seed: 0, config: { maxSequenceLength } });
      const events: RunEvent[] = [];
      // History window 1: each two-turn episode is one sequence of 54 to 56 tokens (two images and the text): under 256, over 48.
      await trainSft(model, { ...episodeSettings, historyWindow: 1, trainSeeds: { start: 1000, count: 100 }, evalSeeds: { start: 0, count: 1 }, steps: 3, batchSize: 4, learningRate: 1e-3, warmupSteps: 0, evalEvery: 3, seed: 0, workers: 0 }, (event) =>
        events.push(event),
      );
      model.dispose();
      return events.find((event) => event.type === 'log' && / demonstrations ready/.test(event.message)) as { message: string; data: unknown };
    };
    expect(await ready(256)).toEqual(expect.objectContaining({ message: '12 demonstrations ready', data: { examples: 12 } }));
    expect(await ready(48)).toEqual(expect.objectContaining({ message: '12 demonstrations ready (12 cut on the left to fit the 48-token context)', data: { examples: 12, cutExamples: 12 } }));
  });

  test('says what to do when the env has no oracle and no demonstrations are given', async () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 0 });
    const { registerEnv } = await import('@saccade/core');
    const { ColourStepsEnv } = await import('../test/colour-steps-env');
    registerEnv({ id: 'test/NoOracle-v1', create: () => Object.assign(new ColourStepsEnv(), { oracleResponse: undefined }), maxTurns: 2 }, { override: true });
    await expect(
      trainSft(model, { ...episodeSettings, envId: 'test/NoOracle-v1', trainSeeds: { start: 10, count: 2 }, evalSeeds: { start: 0, count: 1 }, steps: 1, batchSize: 1, learningRate: 1e-3, warmupSteps: 0, evalEvery: 1, seed: 0, workers: 0 }),
    ).rejects.toThrow(/The oracle could not play test\/NoOracle-v1: .*no oracle.*SFT file/s);
    model.dispose();
  });

  test('refuses evaluation seeds that overlap the training seeds', async () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 0 });
    await expect(
      trainSft(model, { ...episodeSettings, trainSeeds: { start: 0, count: 10 }, evalSeeds: { start: 5, count: 10 }, steps: 1, batchSize: 1, learningRate: 1e-3, warmupSteps: 0, evalEvery: 1, seed: 0 }),
    ).rejects.toThrow('Evaluation seeds overlap the training seeds (e.g. 5)');
    model.dispose();
  });
});

describe('evaluatePolicy', () => {
  test('an untrained model plays every episode to its end, in lock step, the same twice', async () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 1 });
    const episodes = await createPolicyEpisodes(model, episodeSettings, model);
    const result = await evaluatePolicy(episodes, [0, 1, 2]);
    expect(result.episodes).toBe(3);
    expect(result.meanTurns).toBe(2);
    expect(await evaluatePolicy(episodes, [0, 1, 2])).toEqual(result);
    model.dispose();
  });

  test('an evaluation whose every episode fails says why instead of scoring 0', async () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 1 });
    const { registerEnv } = await import('@saccade/core');
    const { ColourStepsEnv } = await import('../test/colour-steps-env');
    registerEnv({ id: 'test/Broken-v1', create: () => Object.assign(new ColourStepsEnv(), { step: async () => { throw new Error('the simulator crashed'); } }), maxTurns: 2 }, { override: true });
    const episodes = await createPolicyEpisodes(model, { ...episodeSettings, envId: 'test/Broken-v1' }, model);
    await expect(evaluatePolicy(episodes, [0, 1])).rejects.toThrow('Every episode of test/Broken-v1 failed (2 of 2); the first: Error: the simulator crashed');
    model.dispose();
  });
});
