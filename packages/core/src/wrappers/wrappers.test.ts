import { InvalidArgumentError, InvalidStateError, type Env, type StepResult } from '@saccade/spec';
import { describe, expect, test } from 'vitest';
import { GuessNumberEnv } from '../__fixtures__/guess-number-env';
import { EnvWrapper } from './env-wrapper';
import { OrderEnforcing } from './order-enforcing';
import { RecordEpisodeStatistics } from './record-episode-statistics';
import { RewardTerms, weightedRewardTerms } from './reward-terms';
import { TimeLimit } from './time-limit';

/** Guesses for seed 0, where the secret is `createRng(0).int(1, 20)`. */
async function secretFor(env: Env): Promise<number> {
  for (let guess = 1; guess <= 20; guess++) {
    await env.reset({ seed: 0 });
    if ((await env.step(`<answer>${guess}</answer>`)).terminated) return guess;
  }
  throw new Error('no secret');
}

describe('EnvWrapper', () => {
  test('forwards everything and overrides one thing', async () => {
    class Shout extends EnvWrapper {
      override systemPrompt(): string {
        return this.env.systemPrompt().toUpperCase();
      }
    }
    const inner = new GuessNumberEnv();
    const env = new Shout(inner);
    expect(env.specificationVersion).toBe('v1');
    expect(env.id).toBe('test/GuessNumber-v1');
    expect(env.systemPrompt()).toBe(inner.systemPrompt().toUpperCase());
    expect(env.unwrapped).toBe(inner);
    expect((await env.reset({ seed: 0 })).observation.text).toBe('Guess a number from 1 to 20. <image>');
    await env.close();
  });
});

describe('TimeLimit', () => {
  test('truncates after maxTurns and resets the count', async () => {
    const env = new TimeLimit(new GuessNumberEnv(), { maxTurns: 2 });
    const secret = await secretFor(new GuessNumberEnv());
    const wrong = `<answer>${secret === 1 ? 2 : 1}</answer>`;
    await env.reset({ seed: 0 });
    expect((await env.step(wrong)).truncated).toBe(false);
    expect(env.turns).toBe(1);
    const second = await env.step(wrong);
    expect(second).toMatchObject({ truncated: true, terminated: false, info: { truncatedBy: 'time-limit' } });
    await env.reset({ seed: 0 });
    expect(env.turns).toBe(0);
    await env.step(wrong);
    const success = await env.step(`<answer>${secret}</answer>`);
    expect(success).toMatchObject({ terminated: true, truncated: false });
    expect(success.info.truncatedBy).toBeUndefined();
  });

  test('maxTurns must be a positive integer', () => {
    expect(() => new TimeLimit(new GuessNumberEnv(), { maxTurns: 1.5 })).toThrow(InvalidArgumentError);
  });
});

describe('OrderEnforcing', () => {
  test('step before reset, reset or step after close', async () => {
    const env = new OrderEnforcing(new GuessNumberEnv({ closeTwiceThrows: true }));
    await expect(env.step('x')).rejects.toThrow(
      'Cannot call step(): expected reset() to be called first, but env "test/GuessNumber-v1" has not been reset.',
    );
    await env.reset();
    await env.step('x');
    await env.close();
    await env.close(); // the inner env would throw on a second close
    await expect(env.reset()).rejects.toThrow(InvalidStateError);
    await expect(env.step('x')).rejects.toThrow('Cannot call step(): expected an open env, but env "test/GuessNumber-v1" was closed.');
  });
});

describe('reward terms', () => {
  test('weightedRewardTerms', () => {
    expect(weightedRewardTerms({ format: 0.5, success: 10 }, { format: 2 })).toEqual({ terms: { format: 1, success: 10 }, reward: 11 });
    expect(weightedRewardTerms({ format: 0.5, success: 10 }, { success: 0.5 }, 0)).toEqual({ terms: { format: 0, success: 5 }, reward: 5 });
    expect(weightedRewardTerms({}, {})).toEqual({ terms: {}, reward: 0 });
  });

  test('RewardTerms reweights, adds terms and keeps the unweighted ones', async () => {
    const env = new RewardTerms(new GuessNumberEnv(), {
      weights: { format: 2, length: 1 },
      extraTerms: (_result: StepResult, action: string) => ({ length: -action.length / 1000 }),
    });
    await env.reset({ seed: 0 });
    const step = await env.step('<answer>0</answer>');
    expect(step.info.rewardTerms).toEqual({ format: 1, success: 0, length: -0.018 });
    expect(step.info.unweightedRewardTerms).toEqual({ format: 0.5, success: 0, length: -0.018 });
    expect(step.reward).toBeCloseTo(0.982, 10);
  });

  test('a step without terms counts as one term, reward', async () => {
    const bare: Env = {
      specificationVersion: 'v1',
      id: 'test/Bare-v1',
      systemPrompt: () => 'p',
      reset: async () => ({ observation: { text: '', images: [] }, info: {} }),
      step: async () => ({ observation: { text: '', images: [] }, reward: 2, terminated: true, truncated: false, info: {} }),
      close: async () => {},
    };
    const step = await new RewardTerms(bare, { weights: { reward: 3 } }).step('x');
    expect(step.reward).toBe(6);
    expect(step.info.rewardTerms).toEqual({ reward: 6 });
  });
});

describe('RecordEpisodeStatistics', () => {
  test('adds info.episode on the last step only', async () => {
    const secret = await secretFor(new GuessNumberEnv());
    const env = new RecordEpisodeStatistics(new GuessNumberEnv());
    await env.reset({ seed: 0 });
    const first = await env.step('bad');
    expect(first.info.episode).toBeUndefined();
    const last = await env.step(`<answer>${secret}</answer>`);
    expect(last.info.episode).toMatchObject({ return: 10.5, length: 2 });
    expect((last.info.episode as { timeMs: number }).timeMs).toBeGreaterThanOrEqual(0);
  });
});
