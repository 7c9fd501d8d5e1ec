import { MockAgent } from '@saccade/agents';
import { VisionLanguageModel } from '@saccade/models';
import type { ImageData, RunEvent, Trajectory } from '@saccade/spec';
import { initTensor } from '@saccade/tensor';
import { beforeAll, describe, expect, test } from 'vitest';
import { colourAt, COLOUR_STEPS_ID, registerColourSteps } from '../test/colour-steps-env';
import { createPolicyEpisodes } from './policy-episodes';
import { grpoBatch, trainGrpo } from './train-grpo';
import { ppoBatch } from './train-ppo';
import { recordedEpisodes, type EpisodeRecorder } from './training-record';

const episodeSettings = { envId: COLOUR_STEPS_ID, view: 'image' as const, historyWindow: 0, maxTurns: 2, maxTokens: 24 };
const right = (seed: number, turn: number): string => `<answer>${colourAt(seed, turn)}</answer>`;

beforeAll(async () => {
  await initTensor();
  registerColourSteps();
});

/** The pieces of a stored sequence that carry loss, joined. */
const lossText = (sequence: { pieces: string[]; loss: number[] }): string => sequence.pieces.filter((_, index) => sequence.loss[index] === 1).join('');

describe('recordedEpisodes', () => {
  test("GRPO: each episode's score and group advantage, its sequences token by token with the masks and advantages the loss read; left-out groups say why", async () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 0 });
    const episodes = await createPolicyEpisodes(model, episodeSettings, model);
    // Seed 1: a success and a miss on turn 2 (scores 1, 0); seed 2: two misses on turn 1 (uniform).
    const agent = new MockAgent({ responses: [right(1, 0), right(1, 1), right(1, 0), '<answer>none</answer>', '<answer>none</answer>', right(2, 1), '<answer>x</answer>', right(2, 1)] });
    const batch = await episodes.play([1, 2], { groupSize: 2, temperature: 1, seed: 0, agent, concurrency: 1 });
    const { used, examples } = await grpoBatch(episodes, batch, { score: 'success' });
    const stored = recordedEpisodes(used, 'grpo', 7, episodes.tokenizer);
    expect(stored.map((trajectory) => [trajectory.id, trajectory.training!.score, trajectory.training!.advantage, trajectory.training!.trained, trajectory.training!.leftOut])).toEqual([
      ['s0-0-0', 1, 0.707106, true, undefined],
      ['s0-0-1', 0, -0.707106, true, undefined],
      ['s0-1-0', 0, 0, false, 'uniform-group'],
      ['s0-1-1', 0, 0, false, 'uniform-group'],
    ]);
    expect(stored.every((trajectory) => trajectory.training!.phase === 'grpo' && trajectory.training!.step === 7)).toBe(true);
    const [first, second] = stored[0]!.training!.sequences;
    expect(stored[0]!.training!.sequences).toHaveLength(2);
    expect(stored[2]!.training!.sequences).toEqual([]);
    // The trained tokens: the response and the template's end token, one piece each, with the episode's advantage.
    const end = model.tokenizer.decode([model.tokenizer.endId]);
    expect(lossText(first!)).toBe(`${right(1, 0)}${end}`);
    expect(lossText(second!)).toBe(`${right(1, 1)}${end}`);
    const trained = first!.loss.flatMap((loss, index) => (loss === 1 ? [index] : []));
    expect(trained.map((index) => first!.tokens[index])).toEqual(trained.map(() => 1));
    expect(new Set(trained.map((index) => first!.advantages[index]))).toEqual(new Set([0.707106]));
    // Everything before the response is context, with no loss or advantage, and the image (its marker and 16 pads) is one piece.
    expect(first!.imagePieces).toHaveLength(1);
    expect(first!.pieces[first!.imagePieces[0]!]).toBe('[image 1: 17 tokens]');
    expect(first!.tokens.reduce((sum, count) => sum + count, 0)).toBe(examples[0]!.tokens.length);
    expect(first!.loss.slice(0, trained[0]).every((loss) => loss === 0)).toBe(true);
    expect(first!.advantages.slice(0, trained[0]).every((advantage) => advantage === 0)).toBe(true);
    expect(first!.turns[trained[0]!]).toBe(0);
    expect(second!.turns[second!.loss.indexOf(1)]).toBe(1);
    // A scripted agent records no log-probs; no critic in GRPO.
    expect(first!.logprobs).toBeUndefined();
    expect(first!.values).toBeUndefined();
    model.dispose();
  });

  test("PPO: the critic's value, the return and the advantage of every trained token", async () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 0 });
    const episodes = await createPolicyEpisodes(model, episodeSettings, model);
    const batch = await episodes.play([1], { temperature: 1, seed: 0, agent: new MockAgent({ responses: [right(1, 0), '<answer>none</answer>'] }), concurrency: 1 });
    const { used, examples } = await ppoBatch(model, episodes, batch, { whiten: false });
    const [stored] = recordedEpisodes(used, 'ppo', 3, episodes.tokenizer);
    expect(stored!.training).toMatchObject({ phase: 'ppo', step: 3, trained: true });
    expect(stored!.training!.score).toBeUndefined();
    const sequences = stored!.training!.sequences;
    expect(sequences).toHaveLength(2);
    sequences.forEach((sequence, index) => {
      const example = examples[index]!;
      const positions = example.lossMask.flatMap((loss, position) => (loss === 1 ? [position] : []));
      const pieces = sequence.loss.flatMap((loss, piece) => (loss === 1 ? [piece] : []));
      expect(pieces).toHaveLength(positions.length);
      const round = (value: number): number => Number(value.toPrecision(6));
      expect(pieces.map((piece) => sequence.advantages[piece])).toEqual(positions.map((position) => round(example.advantages[position]!)));
      expect(pieces.map((piece) => sequence.values![piece])).toEqual(positions.map((position) => round(example.oldValues[position]!)));
      expect(pieces.map((piece) => sequence.returns![piece])).toEqual(positions.map((position) => round(example.returns[position]!)));
    });
    // GAE's advantages, not one per episode: the rewarded first turn's differ from the second's.
    const firstAdvantage = (sequence: (typeof sequences)[number]): number => sequence.advantages[sequence.loss.indexOf(1)]!;
    expect(firstAdvantage(sequences[0]!)).not.toBe(firstAdvantage(sequences[1]!));
    model.dispose();
  });

  test("trainGrpo hands the recorder the steps and evaluations it wants: the sampler's log-probs on the trained tokens, the images they show", async () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 0 });
    const recorded: { trajectories: readonly Trajectory[]; images: ReadonlyMap<string, ImageData> }[] = [];
    const asked: string[] = [];
    const recorder: EpisodeRecorder = {
      wants: (phase, step) => {
        asked.push(`${phase} ${step}`);
        return (phase === 'eval' && step === 0) || (phase === 'grpo' && step === 2);
      },
      record: async (trajectories, images) => {
        recorded.push({ trajectories, images });
      },
    };
    const events: RunEvent[] = [];
    await trainGrpo(
      model,
      {
        ...episodeSettings,
        maxTokens: 12,
        trainSeeds: { start: 1000, count: 50 },
        evalSeeds: { start: 0, count: 3 },
        steps: 2,
        promptsPerStep: 2,
        groupSize: 3,
        learningRate: 1e-3,
        skipUniformGroups: false,
        evalEvery: 2,
        seed: 0,
        workers: 0,
        recorder,
      },
      (event) => events.push(event),
    );
    expect(asked).toEqual(['eval 0', 'grpo 1', 'grpo 2', 'eval 2']);
    expect(recorded.map(({ trajectories }) => trajectories.map((trajectory) => `${trajectory.training!.phase} ${trajectory.training!.step} ${trajectory.id}`))).toEqual([
      ['eval 0 e0-0-0', 'eval 0 e0-1-0', 'eval 0 e0-2-0'],
      ['grpo 2 s2-0-0', 'grpo 2 s2-0-1', 'grpo 2 s2-0-2', 'grpo 2 s2-1-0', 'grpo 2 s2-1-1', 'grpo 2 s2-1-2'],
    ]);
    for (const { trajectories, images } of recorded) {
      for (const trajectory of trajectories) {
        for (const turn of trajectory.turns) for (const image of turn.observation.images) expect(images.has(image.hash)).toBe(true);
      }
    }
    // The loss pieces' log-probs are the sampler's own, in order, for each turn that kept its loss.
    const step = recorded[1]!.trajectories;
    let checked = 0;
    for (const trajectory of step) {
      for (const sequence of trajectory.training!.sequences) {
        const turn = trajectory.turns[sequence.turns[sequence.loss.indexOf(1)]!]!;
        const logprobs = sequence.logprobs!.filter((_, piece) => sequence.loss[piece] === 1);
        expect(logprobs).toEqual(turn.logprobs!.slice(0, logprobs.length).map((value) => Number(value.toPrecision(6))));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
    const rollouts = events.filter((event) => event.type === 'rollout-end');
    expect(rollouts.map((event) => event.metrics['recordSeconds']! > 0)).toEqual([false, true]);
    model.dispose();
  });
});
