import { applyChatTemplate, createModelSequenceTokenizer, Tokenizer } from '@saccade/models';
import { InvalidArgumentError, type SequenceTokenizer, type Trajectory, type Turn } from '@saccade/spec';
import { beforeAll, describe, expect, it } from 'vitest';
import { createQwen25SequenceTokenizer } from './qwen25-sequence-tokenizer';
import { tokenizeTrajectory } from './tokenize-trajectory';

const image = { hash: 'a'.repeat(64), mediaType: 'image/png' as const, width: 56, height: 56 };

function turn(observation: Turn['observation'], action: string, reward: number, extra: Partial<Turn> = {}): Turn {
  return {
    observation,
    action,
    reward,
    rewardTerms: {},
    terminated: false,
    truncated: false,
    info: {},
    timing: { agentMs: 1, envMs: 1 },
    ...extra,
  };
}

/** Two turns, an image in the first observation. */
function handBuilt(extra: Partial<Turn>[] = []): Trajectory {
  return {
    id: 't-0',
    envId: 'test/Hand-v1',
    seed: 7,
    agentId: 'mock',
    groupId: 'g-0',
    systemPrompt: 'Be brief.',
    turns: [
      turn({ text: 'Look: <image>', images: [image] }, '<answer>Left</answer>', 0.5, extra[0]),
      turn({ text: 'Again.', images: [] }, 'Done', 1, { terminated: true, info: { metrics: { success: true } }, ...extra[1] }),
    ],
    totalReward: 1.5,
    terminated: true,
    truncated: false,
    startedAt: '2025-01-01T00:00:00.000Z',
  };
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const maskOf = (length: number, ones: number[]): number[] => Array.from({ length }, (_, i) => (ones.includes(i) ? 1 : 0));

describe('tokenizeTrajectory with Qwen2.5-VL', () => {
  let qwen: SequenceTokenizer;
  beforeAll(async () => {
    qwen = await createQwen25SequenceTokenizer({ imagePadTokens: 4 });
  });

  it('pins the ids, masks, ends of turn, rewards and turn ids of a two-turn trajectory with an image', () => {
    const sequence = tokenizeTrajectory(handBuilt(), qwen);
    // <|im_start|> 151644, <|im_end|> 151645, <|vision_start|> 151652, <|image_pad|> 151655, <|vision_end|> 151653.
    expect(sequence.inputIds).toEqual([
      151644, 8948, 198, 3430, 9814, 13, 151645, 198, // system\nBe brief.
      151644, 872, 198, 10380, 25, 220, 151652, 151655, 151655, 151655, 151655, 151653, 151645, 198, // user\nLook: <image>
      151644, 77091, 198, 27, 9217, 29, 5415, 522, 9217, 29, 151645, 198, // assistant\n<answer>Left</answer>
      151644, 872, 198, 30385, 13, 151645, 198, // user\nAgain.
      151644, 77091, 198, 17453, 151645, 198, // assistant\nDone
    ]);
    const length = 47;
    expect(sequence.lossMask).toEqual(maskOf(length, [...range(25, 32), 44, 45]));
    expect(sequence.advantageMask).toEqual(sequence.lossMask);
    expect(sequence.endOfTurn).toEqual([32, 45]);
    expect(sequence.rewards).toEqual(Array.from({ length }, (_, i) => (i === 32 ? 0.5 : i === 45 ? 1 : 0)));
    expect(sequence.turnIds).toEqual([...new Array(8).fill(-1), ...new Array(26).fill(0), ...new Array(13).fill(1)]);
    expect(sequence.imageSpans).toEqual([{ start: 14, end: 20 }]);
    expect(sequence.images).toEqual([image]);
    expect(sequence).toMatchObject({ trajectoryId: 't-0', groupId: 'g-0', totalReward: 1.5, success: true, truncatedTokens: 0, tokenizer: 'qwen2.5-vl' });
  });

  it("uses the token ids the server returned for a response (vLLM's return_tokens_as_token_ids) with recordedTokens", () => {
    const trajectory = handBuilt();
    // "<answer>Left</answer>" as a model might have sampled it: other ids than encoding the text gives, and a trailing <|im_end|>.
    const sampled = [27, 9217, 29, 2359, 83, 522, 9217, 29, 151645];
    trajectory.turns[0]!.tokens = sampled;
    const recorded = tokenizeTrajectory(trajectory, qwen, { recordedTokens: true });
    expect(recorded.inputIds.slice(25, 34)).toEqual([...sampled.slice(0, -1), 151645]);
    expect(recorded.lossMask.slice(25, 34)).toEqual(new Array(9).fill(1));
    expect(recorded.endOfTurn).toEqual([33, 46]);
    // Without the option (export of another model's trajectories), the text is encoded.
    expect(tokenizeTrajectory(trajectory, qwen).inputIds.slice(25, 33)).toEqual([27, 9217, 29, 5415, 522, 9217, 29, 151645]);
  });

  it('matches the tokenizer on the whole rendered chat and decodes back to it', () => {
    const sequence = tokenizeTrajectory(handBuilt(), qwen);
    const text = qwen.decode(sequence.inputIds);
    expect(text).toBe(
      '<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nLook: <|vision_start|>' +
        '<|image_pad|>'.repeat(4) +
        '<|vision_end|><|im_end|>\n<|im_start|>assistant\n<answer>Left</answer><|im_end|>\n' +
        '<|im_start|>user\nAgain.<|im_end|>\n<|im_start|>assistant\nDone<|im_end|>\n',
    );
  });

  it('counts pad tokens from the image size by default (smartResize, one token per 28 × 28 cell)', async () => {
    const automatic = await createQwen25SequenceTokenizer();
    const trajectory = handBuilt();
    (trajectory.turns[0] as Turn).observation.images = [{ ...image, width: 300, height: 200 }];
    // 300 × 200 → 308 × 196 → 11 × 7 cells.
    expect(tokenizeTrajectory(trajectory, automatic).imageSpans).toEqual([{ start: 14, end: 14 + 77 + 2 }]);
    (trajectory.turns[0] as Turn).observation.images = [{ hash: image.hash, mediaType: 'image/png' }];
    expect(() => tokenizeTrajectory(trajectory, automatic)).toThrow(/width and height/);
  });

  it('adds the default system prompt when the trajectory has none', () => {
    const trajectory = handBuilt();
    delete trajectory.systemPrompt;
    const sequence = tokenizeTrajectory(trajectory, qwen);
    expect(sequence.inputIds.slice(0, 12)).toEqual([151644, 8948, 198, 2610, 525, 264, 10950, 17847, 13, 151645, 198, 151644]);
    expect(sequence.turnIds.slice(0, 11)).toEqual(new Array(11).fill(-1));
  });
});

describe('tokenizeTrajectory with the built-in model tokenizer', () => {
  let model: SequenceTokenizer;
  beforeAll(() => {
    model = createModelSequenceTokenizer({ imageTokens: 4 });
  });

  it('pins the ids, masks, ends of turn, rewards and turn ids of a two-turn trajectory with an image', () => {
    const sequence = tokenizeTrajectory(handBuilt(), model);
    // <bos> 2, <|end|> 3, <|system|> 4, <|user|> 5, <|assistant|> 6, <image_pad> 7, <image> 8, <answer> 11, </answer> 12;
    // printable ASCII c is c − 7.
    expect(sequence.inputIds).toEqual([
      2,
      4, 59, 94, 25, 91, 107, 98, 94, 95, 39, 3, // <|system|>Be brief.<|end|>
      5, 69, 104, 104, 100, 51, 25, 8, 7, 7, 7, 7, 3, // <|user|>Look: <image><image_pad>×4<|end|>
      6, 11, 69, 94, 95, 109, 12, 3, // <|assistant|><answer>Left</answer><|end|>
      5, 58, 96, 90, 98, 103, 39, 3, // <|user|>Again.<|end|>
      6, 61, 104, 103, 94, 3, // <|assistant|>Done<|end|>
    ]);
    const length = 47;
    expect(sequence.lossMask).toEqual(maskOf(length, [...range(26, 32), ...range(42, 46)]));
    expect(sequence.advantageMask).toEqual(sequence.lossMask);
    expect(sequence.endOfTurn).toEqual([32, 46]);
    expect(sequence.rewards).toEqual(Array.from({ length }, (_, i) => (i === 32 ? 0.5 : i === 46 ? 1 : 0)));
    expect(sequence.turnIds).toEqual([...new Array(12).fill(-1), ...new Array(21).fill(0), ...new Array(14).fill(1)]);
    expect(sequence.imageSpans).toEqual([{ start: 19, end: 24 }]);
    expect(model.decode(sequence.inputIds)).toBe(
      '<bos><|system|>Be brief.<|end|><|user|>Look: <image><image_pad><image_pad><image_pad><image_pad><|end|>' +
        '<|assistant|><answer>Left</answer><|end|><|user|>Again.<|end|><|assistant|>Done<|end|>',
    );
  });

  it('agrees with applyChatTemplate on the whole chat', () => {
    const png = { data: new Uint8Array(0), mediaType: 'image/png' as const };
    const expected = applyChatTemplate(
      new Tokenizer(),
      [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'Look: ' }, { type: 'image', image: png }] },
        { role: 'assistant', content: '<answer>Left</answer>' },
        { role: 'user', content: 'Again.' },
        { role: 'assistant', content: 'Done' },
      ],
      { imageTokens: 4, addGenerationPrompt: false },
    );
    const sequence = tokenizeTrajectory(handBuilt(), model);
    expect(sequence.inputIds).toEqual(expected.tokens);
    expect(sequence.lossMask).toEqual(expected.assistantMask);
  });
});

describe('tokenizeTrajectory options', () => {
  let model: SequenceTokenizer;
  beforeAll(() => {
    model = createModelSequenceTokenizer({ imageTokens: 4 });
  });

  it("puts the episode's total on the last end of turn with rewardPlacement 'sum'", () => {
    const sequence = tokenizeTrajectory(handBuilt(), model, { rewardPlacement: 'sum' });
    expect(sequence.rewards[46]).toBe(1.5);
    expect(sequence.rewards.filter((reward) => reward !== 0)).toEqual([1.5]);
  });

  it('masks out a response that never ended and moves its reward to the next turn', () => {
    const sequence = tokenizeTrajectory(handBuilt([{ finishReason: 'length' }]), model);
    expect(sequence.lossMask).toEqual(maskOf(47, range(42, 46)));
    expect(sequence.advantageMask).toEqual(sequence.lossMask);
    expect(sequence.endOfTurn).toEqual([46]);
    expect(sequence.rewards[46]).toBe(1.5);
    expect(sequence.rewards[32]).toBe(0);
  });

  it('moves the reward of a last response that never ended back to the turn before', () => {
    const sequence = tokenizeTrajectory(handBuilt([{}, { finishReason: 'length' }]), model);
    expect(sequence.endOfTurn).toEqual([32]);
    expect(sequence.rewards[32]).toBe(1.5);
    expect(sequence.lossMask.slice(33).every((bit) => bit === 0)).toBe(true);
  });

  it('keeps the system prompt and the last historyWindow + 1 turns', () => {
    const sequence = tokenizeTrajectory(handBuilt(), model, { historyWindow: 0 });
    expect(model.decode(sequence.inputIds)).toBe('<bos><|system|>Be brief.<|end|><|user|>Again.<|end|><|assistant|>Done<|end|>');
    expect(sequence.droppedTurns).toBe(1);
    expect(sequence.images).toEqual([]);
    expect(sequence.endOfTurn).toEqual([sequence.inputIds.length - 1]);
    expect(sequence.rewards[sequence.inputIds.length - 1]).toBe(1);
    expect(sequence.turnIds.filter((id) => id >= 0).every((id) => id === 1)).toBe(true);
    // 'sum' still carries the whole episode's return.
    expect(tokenizeTrajectory(handBuilt(), model, { historyWindow: 0, rewardPlacement: 'sum' }).rewards.at(-1)).toBe(1.5);
  });

  it('cuts on the left to maxLength, never through an image', () => {
    const plain = tokenizeTrajectory(handBuilt(), model, { maxLength: 30 });
    expect(plain.inputIds).toHaveLength(30);
    expect(plain.truncatedTokens).toBe(17);
    expect(plain.endOfTurn).toEqual([32 - 17, 46 - 17]);
    expect(plain.rewards[15]).toBe(0.5);
    expect(plain.images).toEqual([image]);
    expect(plain.imageSpans).toEqual([{ start: 2, end: 7 }]);
    // A cut at 21 would fall inside the image (tokens 19–23): the whole image goes.
    const throughImage = tokenizeTrajectory(handBuilt(), model, { maxLength: 26 });
    expect(throughImage.truncatedTokens).toBe(24);
    expect(throughImage.inputIds).toHaveLength(23);
    expect(throughImage.images).toEqual([]);
    expect(throughImage.imageSpans).toEqual([]);
    const keepsImage = tokenizeTrajectory(handBuilt(), model, { maxLength: 40 });
    expect(keepsImage.imageSpans).toEqual([{ start: 19 - 7, end: 24 - 7 }]);
    expect(keepsImage.images).toEqual([image]);
  });

  it('refuses a trajectory whose placeholders and images disagree, and bad options', () => {
    const trajectory = handBuilt();
    (trajectory.turns[0] as Turn).observation.images = [];
    expect(() => tokenizeTrajectory(trajectory, model)).toThrow(/1 <image> placeholder\(s\) but 0 image/);
    expect(() => tokenizeTrajectory(handBuilt(), model, { maxLength: 0 })).toThrow(InvalidArgumentError);
    expect(() => tokenizeTrajectory(handBuilt(), model, { rewardPlacement: 'last' as never })).toThrow(/'turn' or 'sum'/);
  });

  it('gives a trajectory with no turns a sequence with nothing to learn from', () => {
    const trajectory = { ...handBuilt(), turns: [], error: { name: 'Error', message: 'env down' } };
    const sequence = tokenizeTrajectory(trajectory, model);
    expect(sequence.lossMask.every((bit) => bit === 0)).toBe(true);
    expect(sequence.endOfTurn).toEqual([]);
    expect(sequence.success).toBe(false);
  });
});
