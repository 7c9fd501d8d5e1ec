import { MockAgent } from '@saccade/agents';
import { defineTool, makeEnv, registerTool, ToolUseWrapper } from '@saccade/core';
import { VisionLanguageModel } from '@saccade/models';
import { IMAGE_PLACEHOLDER, type Tool } from '@saccade/spec';
import { initTensor } from '@saccade/tensor';
import { beforeAll, expect, test } from 'vitest';
import { colourAt, COLOUR_STEPS_ID, COLOURS, registerColourSteps, solidPng } from '../test/colour-steps-env';
import { createPolicyEpisodes } from './policy-episodes';

beforeAll(async () => {
  await initTensor();
  registerColourSteps();
  registerTool(
    defineTool({
      name: 'look_closer',
      description: 'Shows the square again, smaller.',
      // A Standard Schema that takes any object, with its JSON schema for the tool prompt.
      inputSchema: { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value: value as object }), jsonSchema: { input: () => ({ type: 'object', properties: {} }) } } } as Tool<object>['inputSchema'],
      execute: async () => ({ text: 'Closer:', images: [{ data: solidPng(8, COLOURS.green), mediaType: 'image/png' }] }),
    }),
    { override: true },
  );
});

test('the exact sequence a trainer consumes for a multi-turn episode with a tool call and two images', async () => {
  const model = VisionLanguageModel.create({ preset: 'tiny', seed: 0 });
  const episodes = await createPolicyEpisodes(
    model,
    {
      envId: COLOUR_STEPS_ID,
      envOptions: { turns: 1 },
      view: 'full',
      maxTurns: 3,
      // The whole sequence, uncut by the tiny model's 256-token context, to see every piece of it.
      maxSequenceLength: 4096,
      createEnv: (prompt) => new ToolUseWrapper(makeEnv(prompt.envId, prompt.envOptions ?? {}), { tools: ['look_closer'] }),
    },
    model,
  );
  const call = '<tool_call>{"name": "look_closer", "arguments": {}}</tool_call>';
  const answer = `<answer>${colourAt(3, 0)}</answer>`;
  const batch = await episodes.play([3], { temperature: 1, seed: 0, agent: new MockAgent({ responses: [call, answer] }) });
  const trajectory = batch.trajectories[0]!;
  expect(trajectory.turns.map((turn) => [turn.action, turn.reward, turn.observation.images.length])).toEqual([
    [call, 0, 1],
    [answer, 1, 1],
  ]);
  // The whole episode is one sequence (the history window holds it): every turn sees the turns before it.
  const [sequence, ...others] = episodes.sequences(trajectory);
  expect(others).toHaveLength(0);

  const t = model.tokenizer;
  const image = [t.encode('<image>')[0]!, ...new Array<number>(16).fill(t.imagePadId)];
  const [before0, after0] = trajectory.turns[0]!.observation.text.split(IMAGE_PLACEHOLDER) as [string, string];
  const [before1, after1] = trajectory.turns[1]!.observation.text.split(IMAGE_PLACEHOLDER) as [string, string];
  expect(before1).toContain('<tool_response>');
  const pieces: [number[], 0 | 1][] = [
    [[t.bosId, t.systemId, ...t.encode(trajectory.systemPrompt!), t.endId], 0],
    [[t.userId, ...t.encode(before0)], 0],
    [image, 0],
    [[...t.encode(after0), t.endId, t.assistantId], 0],
    [[...t.encode(call), t.endId], 1],
    [[t.userId, ...t.encode(before1)], 0],
    [image, 0],
    [[...t.encode(after1), t.endId, t.assistantId], 0],
    [[...t.encode(answer), t.endId], 1],
  ];
  const ids = pieces.flatMap(([tokens]) => tokens);
  const mask = pieces.flatMap(([tokens, flag]) => tokens.map(() => flag));
  expect(sequence!.inputIds).toEqual(ids);
  expect(sequence!.lossMask).toEqual(mask);
  expect(sequence!.advantageMask).toEqual(mask);
  const lengths = pieces.map(([tokens]) => tokens.length);
  const end = (piece: number): number => lengths.slice(0, piece + 1).reduce((sum, length) => sum + length, 0) - 1;
  expect(sequence!.endOfTurn).toEqual([end(4), end(8)]);
  expect(sequence!.rewards.flatMap((reward, position) => (reward === 0 ? [] : [[position, reward]]))).toEqual([[end(8), 1]]);
  expect(sequence!.imageSpans).toEqual([
    { start: end(1) + 1, end: end(2) + 1 },
    { start: end(5) + 1, end: end(6) + 1 },
  ]);
  expect(sequence!.images.map((reference) => reference.hash)).toEqual(trajectory.turns.map((turn) => turn.observation.images[0]!.hash));

  // What the model reads for it: the same tokens, the two images decoded at its size.
  const modelSequence = await episodes.modelSequence(sequence!, batch.images);
  expect(modelSequence.tokens).toEqual(ids);
  expect(modelSequence.images!.map((decoded) => [decoded.width, Array.from(decoded.data.slice(0, 3))])).toEqual([
    [64, [...COLOURS[colourAt(3, 0)]]],
    [64, [...COLOURS.green]],
  ]);
  model.dispose();
});

test("each turn's prompt in lock step is the sequence's prefix: what the trainer scores is what the policy read", async () => {
  const model = VisionLanguageModel.create({ preset: 'tiny', seed: 4 });
  const prompts: number[][] = [];
  const generator = {
    generate: async (options: Parameters<typeof model.generate>[0]) => {
      prompts.push(...options.prompts.map((prompt) => [...prompt.tokens]));
      return model.generate(options);
    },
  };
  const episodes = await createPolicyEpisodes(model, { envId: COLOUR_STEPS_ID, view: 'full', maxTurns: 2, maxTokens: 6 }, generator);
  const batch = await episodes.play([0, 1], { temperature: 1, seed: 9 });
  // Two episodes of two turns, one generate call per round with both episodes' prompts.
  expect(prompts).toHaveLength(4);
  const sequences = batch.trajectories.map((trajectory) => episodes.sequences(trajectory));
  for (const [index, [sequence]] of sequences.entries()) {
    for (const turn of [0, 1]) {
      const prompt = prompts[turn * 2 + index]!;
      expect(sequence!.inputIds.slice(0, prompt.length)).toEqual(prompt);
      // The sampled tokens follow the prompt as the model wrote them.
      const sampled = batch.trajectories[index]!.turns[turn]!.tokens!;
      expect(sequence!.inputIds.slice(prompt.length, prompt.length + sampled.length)).toEqual(sampled);
    }
  }
  // Same seed, same episodes.
  const again = await episodes.play([0, 1], { temperature: 1, seed: 9 });
  expect(again.trajectories.map((trajectory) => trajectory.turns.map((turn) => turn.action))).toEqual(batch.trajectories.map((trajectory) => trajectory.turns.map((turn) => turn.action)));
  model.dispose();
});
