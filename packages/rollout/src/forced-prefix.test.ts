import { MockAgent } from '@saccade/agents';
import { createModelAgent, createModelSequenceTokenizer, imageTokenCount, VisionLanguageModel, type GenerateOptions } from '@saccade/models';
import type { Env, EnvResetOptions, ResetResult, RunEvent, StepResult } from '@saccade/spec';
import { describe, expect, it } from 'vitest';
import { runRollouts } from './run-rollouts';
import { trajectorySequences } from './trajectory-sequences';

/** An env that asks for the start of each response: `infos[0]` is the reset's info, `infos[i]` step i's; one turn per entry. */
class PrefixEnv implements Env {
  readonly specificationVersion = 'v1' as const;
  readonly id = 'test/Prefix-v1';
  readonly actions: string[] = [];

  constructor(readonly infos: Record<string, unknown>[]) {}

  async reset(_options?: EnvResetOptions): Promise<ResetResult> {
    this.actions.length = 0;
    return { observation: { text: 'Question 0.', images: [] }, info: this.infos[0] ?? {} };
  }

  async step(action: string): Promise<StepResult> {
    this.actions.push(action);
    const turn = this.actions.length;
    const terminated = turn >= this.infos.length;
    return { observation: { text: `Question ${turn}.`, images: [] }, reward: terminated ? 1 : 0, terminated, truncated: false, info: terminated ? {} : (this.infos[turn] ?? {}) };
  }

  systemPrompt(): string {
    return 'Think, then answer.';
  }

  async close(): Promise<void> {}
}

const text = (value: string) => [{ type: 'text' as const, text: value }];

describe('a forced prefix (info.forcedPrefix)', () => {
  it('ends the messages with the prefix as an assistant message, and records prefix + continuation as the action', async () => {
    // Reset: continue '<think>'; step 1: an empty prefix is none; step 2: continue '<answer>'.
    const env = new PrefixEnv([{ forcedPrefix: '<think>' }, { forcedPrefix: '' }, { forcedPrefix: '<answer>' }]);
    const agent = new MockAgent({
      responses: [
        { outputs: [{ text: 'Look left.</think>', tokens: [1, 2], logprobs: [-1, -2], finishReason: 'stop' }] },
        { outputs: [{ text: '<tool_call>zoom</tool_call>', tokens: [3, 4], logprobs: [-3, -4], finishReason: 'stop' }] },
        { outputs: [{ text: 'B</answer>', tokens: [5, 6], logprobs: [-5, -6], finishReason: 'stop' }] },
      ],
    });
    const events: RunEvent[] = [];
    const { trajectories } = await runRollouts({ prompts: [{ envId: env.id }], agent, createEnv: () => env, onEvent: (event) => events.push(event) });
    const [trajectory] = trajectories;

    expect(agent.calls.map((call) => call.messages)).toEqual([
      [
        { role: 'system', content: 'Think, then answer.' },
        { role: 'user', content: text('Question 0.') },
        { role: 'assistant', content: '<think>' },
      ],
      [
        { role: 'system', content: 'Think, then answer.' },
        { role: 'user', content: text('Question 0.') },
        { role: 'assistant', content: '<think>Look left.</think>' },
        { role: 'user', content: text('Question 1.') },
      ],
      [
        { role: 'system', content: 'Think, then answer.' },
        { role: 'user', content: text('Question 0.') },
        { role: 'assistant', content: '<think>Look left.</think>' },
        { role: 'user', content: text('Question 1.') },
        { role: 'assistant', content: '<tool_call>zoom</tool_call>' },
        { role: 'user', content: text('Question 2.') },
        { role: 'assistant', content: '<answer>' },
      ],
    ]);
    const actions = ['<think>Look left.</think>', '<tool_call>zoom</tool_call>', '<answer>B</answer>'];
    expect(env.actions).toEqual(actions);
    expect(trajectory?.turns.map((turn) => turn.action)).toEqual(actions);
    expect(events.flatMap((event) => (event.type === 'turn-end' ? [event.action] : []))).toEqual(actions);
    // The prefixed turns say so; an agent that does not report its prompt keeps no sampled tokens for
    // them (the continuation's context is unknown), only for the turn without a prefix.
    expect(trajectory?.turns.map((turn) => [turn.forcedPrefix, turn.tokens, turn.logprobs])).toEqual([
      ['<think>', undefined, undefined],
      [undefined, [3, 4], [-3, -4]],
      ['<answer>', undefined, undefined],
    ]);
    expect(trajectory).toMatchObject({ terminated: true, totalReward: 1 });
  });

  it('in lock step, a continuing model agent continues the prefix and a plain one answers after it', async () => {
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 0 });
    const answer = model.tokenizer.encode('B</answer>');
    for (const continueFinalMessage of [true, false]) {
      const batches: GenerateOptions['prompts'][] = [];
      // Generation replayed (the prompts are what is checked): one sample per prompt, 'B</answer>'.
      const generator = {
        generate: async (options: GenerateOptions) => {
          batches.push(options.prompts);
          return options.prompts.map(() => [{ text: 'B</answer>', tokens: answer, logProbs: answer.map(() => -0.5), finishReason: 'stop' as const }]);
        },
      };
      const agent = createModelAgent({ model, generator, continueFinalMessage });
      // Seed 1's env forces '<answer>' from the reset; seed 0's does not.
      const envs = new Map<number, PrefixEnv>();
      const createEnv = ({ seed }: { seed?: number | null }) => {
        const env = new PrefixEnv([seed === 1 ? { forcedPrefix: '<answer>' } : {}]);
        envs.set(seed ?? -1, env);
        return env;
      };
      const { trajectories } = await runRollouts({ prompts: [{ envId: 'test/Prefix-v1', seed: 0 }, { envId: 'test/Prefix-v1', seed: 1 }], agent, createEnv });

      expect(batches).toHaveLength(1);
      const prompts = batches[0]!.map((prompt) => model.tokenizer.decode(prompt.tokens));
      expect(prompts[0]).toBe('<bos><|system|>Think, then answer.<|end|><|user|>Question 0.<|end|><|assistant|>');
      expect(prompts[1]).toBe(
        continueFinalMessage
          ? '<bos><|system|>Think, then answer.<|end|><|user|>Question 0.<|end|><|assistant|><answer>'
          : '<bos><|system|>Think, then answer.<|end|><|user|>Question 0.<|end|><|assistant|><answer><|end|><|assistant|>',
      );
      expect(envs.get(0)?.actions).toEqual(['B</answer>']);
      expect(envs.get(1)?.actions).toEqual(['<answer>B</answer>']);
      expect(trajectories.map((trajectory) => trajectory.turns[0]?.action)).toEqual(['B</answer>', '<answer>B</answer>']);
      // The continuation is recorded with the prompt it was sampled in, which holds the prefix: rollout's
      // sampled sequence is that prompt as context and the continuation with loss, nothing re-encoded.
      expect(trajectories.map((trajectory) => [trajectory.turns[0]?.forcedPrefix, trajectory.turns[0]?.tokens])).toEqual([
        [undefined, answer],
        ['<answer>', answer],
      ]);
      const prefixed = trajectories[1]!;
      expect(prefixed.turns[0]!.prompt!.tokens).toEqual(batches[0]![1]!.tokens);
      const tokenizer = createModelSequenceTokenizer({ imageTokens: imageTokenCount(model.config), tokenizer: model.tokenizer });
      const [sequence, ...rest] = trajectorySequences(prefixed, tokenizer, { recordedTokens: true });
      expect(rest).toEqual([]);
      expect(sequence!.inputIds).toEqual([...batches[0]![1]!.tokens, ...answer]);
      expect(sequence!.lossMask).toEqual([...batches[0]![1]!.tokens.map(() => 0), ...answer.map(() => 1)]);
      expect(sequence!.sampledLogProbs!.slice(-answer.length)).toEqual(answer.map(() => -0.5));
    }
  });
});
