import { InvalidArgumentError } from '@saccade/spec';
import { describe, expect, test } from 'vitest';
import { cpuTime } from '../__fixtures__/cpu-time';
import { createRng } from '../random/create-rng';
import { getAnswerChecker, listAnswerCheckers, registerAnswerChecker } from './answer-checker-registry';
import { checkIconQA } from './science-checkers';

const names = listAnswerCheckers();

describe('answer checkers and hostile targets', () => {
  test.each([
    [{ answer: 'a', choices: 'abc' }, 'Invalid argument target.choices: expected an array of strings (the options, A first), received "abc".'],
    [{ answer: 'a', choices: ['x', 7] }, 'Invalid argument target.choices[1]: expected a string, received 7.'],
    [{ answer: { text: 'a' } }, 'Invalid argument target.answer: expected a string, a number, a boolean or an array of strings and numbers, received {"text":"a"}.'],
    [{ answer: ['a', null] }, 'Invalid argument target.answer[1]: expected a string or a number, received null.'],
    [{ answer: 'a', question: 5 }, 'Invalid argument target.question: expected a string, received 5.'],
    [{ answer: 'a', metadata: 'x' }, 'Invalid argument target.metadata: expected an object, received "x".'],
    [null, 'Invalid argument target: expected an object {answer, choices?, question?, metadata?}, received null.'],
  ])('every checker refuses %j with the same InvalidArgumentError', (target, message) => {
    for (const name of names) {
      let caught: unknown;
      try {
        getAnswerChecker(name)('A', target as never);
      } catch (error) {
        caught = error;
      }
      expect({ name, message: (caught as Error | undefined)?.message, isInvalidArgument: InvalidArgumentError.isInstance(caught) }).toEqual({ name, message, isInvalidArgument: true });
    }
  });

  test('a registered checker gets the same validation', () => {
    registerAnswerChecker('hostile-test', () => ({ correct: true, score: 1, detail: 'always' }), { override: true });
    expect(() => getAnswerChecker('hostile-test')('x', { answer: 'a', choices: 'abc' } as never)).toThrow('Invalid argument target.choices');
  });

  test('IconQA takes a 12,319-character answer (no RegExp built from it)', () => {
    const long = 'word '.repeat(2_463) + 'tail';
    expect(long.length).toBe(12_319);
    expect(checkIconQA(`it is ${long.slice(0, 40)}`, { answer: long })).toMatchObject({ correct: false });
    expect(checkIconQA('the answer is cat.', { answer: 'Cat' })).toMatchObject({ correct: true, detail: 'contains "Cat" as a word' });
    expect(checkIconQA('concatenate', { answer: 'cat' })).toMatchObject({ correct: false });
    expect(checkIconQA('it costs $5 today', { answer: '$5' })).toMatchObject({ correct: true });
  });

  test('10,000 reference answers and a 100 KB prediction: every checker in well under a second of CPU', () => {
    const answers = Array.from({ length: 10_000 }, (_, index) => `answer ${index}`);
    const prediction = 'the answer is 12.5 because '.repeat(4_000).slice(0, 100_000);
    const times: [string, number][] = [];
    for (const name of names) {
      const checker = getAnswerChecker(name);
      let result: unknown;
      const used = cpuTime(() => {
        try {
          result = checker(prediction, { answer: answers });
        } catch (error) {
          result = error;
        }
      });
      // Before the prediction was parsed once per answer: 1.5–3.4 s for PlotQA, IconQA, TabMWP, UniGeo.
      times.push([name, used]);
      expect(result).toBeDefined();
    }
    if (process.env['CHECKER_TIMES'] !== undefined) console.log(JSON.stringify(times));
    expect(times.filter(([, used]) => used >= 400)).toEqual([]);
  });

  test('fuzz: 3,000 random targets and predictions (seed 23) over every checker: a check or an InvalidArgumentError, nothing else', () => {
    const rng = createRng(23);
    const pick = <T>(items: readonly T[]): T => items[rng.int(0, items.length - 1)]!;
    const words = ['yes', 'no', '12', '3/4', '45%', '(B)', 'A', 'cat', '[1, 2]', '2019', '0.5', 'İ', '', ' ', '[10, 20, 30, 40]', '(5, 5)', 'x'.repeat(300), '\u0000', '1e308', '-0'];
    const text = () => Array.from({ length: rng.int(0, 4) }, () => pick(words)).join(pick([' ', ', ', '\n', '']));
    const values: unknown[] = [undefined, null, 5, true, 'abc', { a: 1 }, [], [1, 'a'], [null], Number.NaN];
    let checks = 0;
    let refused = 0;
    for (let index = 0; index < 3_000; index++) {
      const malformed = rng.next() < 0.3;
      const target: Record<string, unknown> = { answer: rng.next() < 0.2 ? [text(), text()] : text() };
      if (rng.next() < 0.4) target['choices'] = Array.from({ length: rng.int(0, 5) }, text);
      if (rng.next() < 0.3) target['metadata'] = { answer_index: rng.int(-1, 5), precision: rng.int(0, 3), tolerance: rng.next() };
      if (malformed) target[pick(['answer', 'choices', 'question', 'metadata'])] = pick(values);
      const name = pick(names);
      try {
        const result = getAnswerChecker(name)(text(), target as never);
        expect(result.score >= 0 && result.score <= 1 && typeof result.correct === 'boolean' && typeof result.detail === 'string').toBe(true);
        checks++;
      } catch (error) {
        if (!InvalidArgumentError.isInstance(error)) expect({ name, target, error: String(error) }).toBe('a check or an InvalidArgumentError');
        refused++;
      }
    }
    expect(checks + refused).toBe(3_000);
    expect(checks).toBeGreaterThan(1_500);
  });
});
