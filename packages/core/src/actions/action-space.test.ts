import type { ActionSpace, Env } from '@saccade/spec';
import { describe, expect, test } from 'vitest';
import { GuessNumberEnv } from '../testing';
import { checkEnv } from '../check/check-env';
import { createRng } from '../random/create-rng';
import { TimeLimit } from '../wrappers/time-limit';
import { describeInvalidActionSpace, findActionSpace, formatAnswer, sampleAnswer } from './action-space';

const grid: ActionSpace = { kind: 'discrete', actions: ['Left', 'Down', 'Right', 'Up'], maxActionsPerTurn: 3, separator: ',', format: 'free_think' };

describe('action spaces', () => {
  test('sampleAnswer draws from the space, the same for the same seed', () => {
    const answers = Array.from({ length: 50 }, ((rng) => () => sampleAnswer(grid, rng))(createRng(7)));
    expect(answers).toEqual(Array.from({ length: 50 }, ((rng) => () => sampleAnswer(grid, rng))(createRng(7))));
    for (const answer of answers) {
      const moves = answer.split(', ');
      expect(moves.length).toBeGreaterThanOrEqual(1);
      expect(moves.length).toBeLessThanOrEqual(3);
      for (const move of moves) expect(['Left', 'Down', 'Right', 'Up']).toContain(move);
    }
    expect(new Set(answers.map((answer) => answer.split(', ').length))).toEqual(new Set([1, 2, 3]));
    expect(['A', 'B']).toContain(sampleAnswer({ kind: 'text', choices: ['A', 'B'], format: 'final-answer' }, createRng(1)));
    expect(Number(sampleAnswer({ kind: 'text', answerType: 'number', format: 'final-answer' }, createRng(1)))).toBeLessThanOrEqual(10);
    expect(sampleAnswer({ kind: 'tool-calls', tools: ['zoom'], answer: { kind: 'text', choices: ['yes'], format: 'no_think' } }, createRng(1))).toBe('yes');
  });

  test('formatAnswer writes the VAGEN formats and <answer> for others', () => {
    expect(formatAnswer('free_think', 'Left', 'I go.')).toBe('<think>I go.</think><answer>Left</answer>');
    expect(formatAnswer('no_think', 'Left')).toBe('<answer>Left</answer>');
    expect(formatAnswer('grounding', 'B', 'x')).toBe('<think><observation>x</observation><reasoning>x</reasoning></think><answer>B</answer>');
    expect(formatAnswer('final-answer', '42')).toBe('<answer>42</answer>');
  });

  test('describeInvalidActionSpace says what is wrong', () => {
    expect(describeInvalidActionSpace(grid)).toBeUndefined();
    expect(describeInvalidActionSpace({ ...grid, actions: [] })).toBe('actionSpace().actions: expected a non-empty array of non-empty strings');
    expect(describeInvalidActionSpace({ kind: 'buttons' })).toBe(`actionSpace().kind: expected 'discrete', 'text' or 'tool-calls', received "buttons"`);
    expect(describeInvalidActionSpace({ kind: 'tool-calls', tools: ['zoom'], answer: { ...grid, maxActionsPerTurn: 0 } })).toBe('actionSpace().answer.maxActionsPerTurn: expected an integer ≥ 1, received 0');
  });

  test('wrappers pass the space through, and checkEnv steps a random answer from it', async () => {
    class Declaring extends GuessNumberEnv {
      actionSpace(): ActionSpace {
        return { kind: 'text', answerType: 'number', format: 'final-answer' };
      }
    }
    const env = new TimeLimit(new Declaring(), { maxTurns: 5 }) as Env;
    expect(findActionSpace(env)).toEqual({ kind: 'text', answerType: 'number', format: 'final-answer' });
    expect(findActionSpace(new GuessNumberEnv())).toBeUndefined();
    expect((await checkEnv(() => new Declaring())).failures).toEqual([]);
    class Broken extends GuessNumberEnv {
      actionSpace(): ActionSpace {
        return { kind: 'discrete', actions: ['up'], maxActionsPerTurn: 1, separator: '' } as unknown as ActionSpace;
      }
    }
    expect((await checkEnv(() => new Broken())).failures).toEqual(['actionSpace().separator: expected a non-empty string']);
  });
});
