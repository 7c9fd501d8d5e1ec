import { InvalidArgumentError } from '@saccade/spec';
import { SokobanEnv } from '../sokoban/sokoban-env';
import { describe, expect, it } from 'vitest';
import { oracleResponse } from '../oracle-response';
import { FrozenLakeEnv } from './frozen-lake-env';

const MAP = ['SFFF', 'FHFH', 'FFFH', 'HFFG'];
const answer = (actions: string) => `<think>plan</think><answer>${actions}</answer>`;

async function lake(options: ConstructorParameters<typeof FrozenLakeEnv>[0] = {}) {
  const env = new FrozenLakeEnv({ observation: 'text', map: MAP, ...options });
  const reset = await env.reset({ seed: 0 });
  return { env, reset };
}

describe('FrozenLakeEnv scripted episodes', () => {
  it('reaching the goal: 0.5 format per turn and 10 for the goal', async () => {
    const { env, reset } = await lake();
    expect(reset.observation.text).toContain('P___\n_O_O\n___O\nO__G');
    expect(reset.observation.images).toEqual([]);
    const first = await env.step(answer('Right, Right, Down'));
    expect(first).toMatchObject({ reward: 0.5, terminated: false, truncated: false });
    expect(first.info.rewardTerms).toEqual({ format: 0.5 });
    expect(first.info.metrics).toEqual({ action_is_valid: true, action_is_effective: true, success: false, format_correct: true });
    const second = await env.step(answer('Down, Down, Right'));
    expect(second).toMatchObject({ reward: 10.5, terminated: true });
    expect(second.info.rewardTerms).toEqual({ format: 0.5, goal: 10 });
    expect(second.info.metrics).toEqual({ action_is_valid: true, action_is_effective: true, success: true, format_correct: true });
    expect(second.observation.text).toContain('O__√');
    await expect(env.step(answer('Up'))).rejects.toThrow(/episode has ended/);
  });

  it('falling in a hole ends the episode with the format reward only and skips later actions', async () => {
    const { env } = await lake();
    const result = await env.step(answer('Right, Down, Right'));
    expect(result).toMatchObject({ reward: 0.5, terminated: true });
    expect(result.info.executedActions).toEqual(['Right', 'Down']);
    expect(result.info.metrics).toEqual({ action_is_valid: true, action_is_effective: true, success: false, format_correct: true });
    expect(result.observation.text).toContain('_X_O');
  });

  it('an unknown action stops execution and loses the format reward', async () => {
    const { env } = await lake();
    const result = await env.step(answer('Right, Jump, Down'));
    expect(result.reward).toBe(0);
    expect(result.info.rewardTerms).toEqual({ format: 0 });
    expect(result.info.executedActions).toEqual(['Right']);
    expect(result.info.metrics).toEqual({ action_is_valid: false, action_is_effective: true, success: false, format_correct: true });
  });

  it('a bad format runs nothing and earns nothing', async () => {
    const { env } = await lake();
    const result = await env.step('Right');
    expect(result).toMatchObject({ reward: 0, terminated: false });
    expect(result.info.metrics).toEqual({ action_is_valid: false, action_is_effective: false, success: false, format_correct: false });
    expect(result.info.formatError).toMatch(/expected/);
    // One spelling: format_correct in metrics, as VAGEN's turn metrics carry it; no top-level formatCorrect.
    expect(Object.keys(result.info).sort()).toEqual(['executedActions', 'formatError', 'isFormatRewarded', 'metrics', 'rewardTerms', 'seed', 'state']);
    expect(result.observation.text).toContain('did not follow the format');
  });

  it('bumping the edge is valid but not effective; actions beyond the cap are dropped', async () => {
    const { env } = await lake();
    const bump = await env.step(answer('Up'));
    expect(bump.reward).toBe(0.5);
    expect(bump.info.metrics).toMatchObject({ action_is_valid: true, action_is_effective: false });
    const capped = await env.step(answer('Right, Right, Down, Down'));
    expect(capped.info.executedActions).toEqual(['Right', 'Right', 'Down']);
  });

  it('accepts lower-case actions and a custom cap', async () => {
    const { env } = await lake({ maxActionsPerTurn: 1 });
    const result = await env.step(answer('right, right'));
    expect(result.info.executedActions).toEqual(['Right']);
  });
});

describe('FrozenLakeEnv observations and seeds', () => {
  it('vision mode shows one PNG, 16 px per cell, the same bytes for the same seed', async () => {
    const env = new FrozenLakeEnv();
    const a = await env.reset({ seed: 42 });
    expect(a.observation.text.match(/<image>/g)).toHaveLength(1);
    const [image] = a.observation.images;
    expect(image).toMatchObject({ mediaType: 'image/png', width: 64, height: 64 });
    expect(Buffer.from(image!.data.subarray(1, 4)).toString()).toBe('PNG');
    const b = await new FrozenLakeEnv().reset({ seed: 42 });
    expect(Buffer.from(b.observation.images[0]!.data).equals(Buffer.from(image!.data))).toBe(true);
    expect(a.info.state).toEqual(b.info.state);
    const other = await new FrozenLakeEnv().reset({ seed: 43 });
    expect(other.info.state).not.toEqual(a.info.state);
  });

  it('cached frames are the same bytes as fresh renders', async () => {
    const fresh = await new FrozenLakeEnv({ cacheFrames: false }).reset({ seed: 42 });
    const first = await new FrozenLakeEnv().reset({ seed: 42 });
    const cached = await new FrozenLakeEnv().reset({ seed: 42 });
    for (const result of [first, cached]) {
      expect(Buffer.from(result.observation.images[0]!.data).equals(Buffer.from(fresh.observation.images[0]!.data))).toBe(true);
    }
    expect(cached.observation.images[0]).toMatchObject({ width: 64, height: 64 });
  });

  it('both mode shows the image and the grid; cellSize sets the image size', async () => {
    const env = new FrozenLakeEnv({ observation: 'both', cellSize: 32, size: 5 });
    const { observation } = await env.reset({ seed: 1 });
    expect(observation.images[0]).toMatchObject({ width: 160, height: 160 });
    expect(observation.text).toContain('<image>\n');
    expect(observation.text.split('\n').filter((line) => /^[P_OG]{5}$/.test(line))).toHaveLength(5);
  });

  it('the map follows the seed', async () => {
    const maps = new Set<string>();
    for (let seed = 0; seed < 20; seed++) {
      await (async () => {
        const env = new FrozenLakeEnv({ observation: 'text' });
        maps.add((await env.reset({ seed })).observation.text);
      })();
    }
    expect(maps.size).toBeGreaterThan(15);
  });

  it('slippery ice follows the seed too', async () => {
    const run = async () => {
      const env = new FrozenLakeEnv({ observation: 'text', slippery: true, size: 6 });
      await env.reset({ seed: 9 });
      const results = [];
      for (let turn = 0; turn < 3; turn++) {
        const result = await env.step(answer('Right, Down, Left'));
        results.push(result.info.state);
        if (result.terminated) break;
      }
      return results;
    };
    expect(await run()).toEqual(await run());
  });

  it('refuses bad options with InvalidArgumentError', async () => {
    expect(() => new FrozenLakeEnv({ map: ['SX', 'FG'] })).toThrow(InvalidArgumentError);
    expect(() => new FrozenLakeEnv({ observation: 'audio' as never })).toThrow(/observation/);
    expect(() => new FrozenLakeEnv({ maxActionsPerTurn: 0 })).toThrow(InvalidArgumentError);
    await expect(new FrozenLakeEnv({ cellSize: 3 }).reset({ seed: 0 })).rejects.toThrow(/cellSize/);
  });

  it('refuses an option it does not take, and a size out of range, when made (not at the first reset)', () => {
    expect(() => new FrozenLakeEnv({ size: -5 })).toThrow('Invalid argument size: expected an integer ≥ 2 and ≤ 64, received -5.');
    expect(() => new FrozenLakeEnv({ zzz: 1 } as never)).toThrow(
      'Invalid argument zzz: expected an option of saccade/FrozenLake-v1: observation, format, maxActionsPerTurn, actionSeparator, cellSize, formatReward, visualReasoningReward, visualReasoningWeight, judge, cacheFrames, size, frozenProbability, maxSolutionSteps, slippery, map, goalReward, received 1.',
    );
    expect(() => new FrozenLakeEnv({ frozenProbability: 2 })).toThrow('Invalid argument frozenProbability: expected a number in (0, 1], received 2.');
    expect(() => new SokobanEnv({ boxs: 2 } as never)).toThrow(/^Invalid argument boxs: expected an option of saccade\/Sokoban-v1: .*, boxes, /);
    expect(() => new SokobanEnv({ width: 2.5 })).toThrow('Invalid argument width: expected an integer ≥ 3 and ≤ 64, received 2.5.');
    expect(new FrozenLakeEnv({ size: 5, slippery: true, observation: 'text' }).options).toMatchObject({ size: 5 });
  });

  it('the system prompt explains rules, actions and format', () => {
    const prompt = new FrozenLakeEnv({ format: 'grounding_worldmodeling', observation: 'text' }).systemPrompt();
    expect(prompt).toMatch(/hole/i);
    expect(prompt).toContain('Up, Down, Left, Right');
    expect(prompt).toContain('<observation>');
    expect(prompt).toContain('<prediction>');
    expect(prompt).toContain('P player');
  });
});

describe('FrozenLakeEnv visual reasoning reward', () => {
  it('adds grounding and worldmodel terms scored against the true states', async () => {
    const { env } = await lake({ format: 'grounding_worldmodeling', visualReasoningReward: true });
    const good = await env.step(oracleResponse(env));
    expect(good.info.rewardTerms).toMatchObject({ format: 0.5, grounding: 0.5, worldmodel: 0.5 });
    const wrong = await env.step(
      '<think><observation>The goal is above the player.</observation><reasoning>go</reasoning><prediction>The goal is to the left of the player.</prediction></think><answer>Down</answer>',
    );
    expect(wrong.info.rewardTerms).toMatchObject({ format: 0.5, grounding: 0, worldmodel: 0 });
  });

  it('gives no visual reasoning terms when the format is not rewarded, and uses a judge when given', async () => {
    const calls: string[] = [];
    const { env } = await lake({
      format: 'grounding',
      visualReasoningReward: true,
      judge: async (kind, text, state) => (calls.push(`${kind}:${text}:${state.env}`), 0.25),
    });
    const bad = await env.step('<think><observation>x</observation><reasoning>y</reasoning></think><answer>Fly</answer>');
    expect(bad.info.rewardTerms).toEqual({ format: 0 });
    const judged = await env.step('<think><observation>seen</observation><reasoning>y</reasoning></think><answer>Right</answer>');
    expect(judged.info.rewardTerms).toEqual({ format: 0.5, grounding: 0.125 });
    expect(calls).toEqual(['grounding:seen:frozen-lake']);
  });
});
