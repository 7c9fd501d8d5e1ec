import { InvalidArgumentError } from '@saccade/spec';
import { describe, expect, test } from 'vitest';
import { cpuTime } from '../__fixtures__/cpu-time';
import type { OutputFormat } from './output-format';
import { formatTemplate } from './output-format';
import { parseFormattedResponse, type ParsedResponse } from './parse-formatted-response';

const parse = (text: string, format: OutputFormat, extra: { maxActions?: number; separator?: string | null; maxLength?: number } = {}) =>
  parseFormattedResponse(text, { format, ...extra });

describe('well-formed responses, every format', () => {
  test('free_think', () => {
    expect(parse('<think>The goal is left.</think><answer>Left, Up</answer>', 'free_think')).toEqual({
      format: 'free_think',
      formatCorrect: true,
      think: 'The goal is left.',
      answer: 'Left, Up',
      actions: ['Left', 'Up'],
      droppedActions: [],
    });
  });

  test('no_think', () => {
    expect(parse('<answer>Down</answer>', 'no_think')).toEqual({
      format: 'no_think',
      formatCorrect: true,
      answer: 'Down',
      actions: ['Down'],
      droppedActions: [],
    });
  });

  test('grounding', () => {
    const text =
      '<think><observation>P is at (1,1), G at (3,3).</observation><reasoning>Go down then right.</reasoning></think><answer>Down,Right</answer>';
    expect(parse(text, 'grounding')).toEqual({
      format: 'grounding',
      formatCorrect: true,
      think: '<observation>P is at (1,1), G at (3,3).</observation><reasoning>Go down then right.</reasoning>',
      observation: 'P is at (1,1), G at (3,3).',
      reasoning: 'Go down then right.',
      answer: 'Down,Right',
      actions: ['Down', 'Right'],
      droppedActions: [],
    });
  });

  test('worldmodeling', () => {
    const text = '<think><reasoning>Push the box up.</reasoning><prediction>The box is on the target.</prediction></think><answer>Up</answer>';
    expect(parse(text, 'worldmodeling')).toEqual({
      format: 'worldmodeling',
      formatCorrect: true,
      think: '<reasoning>Push the box up.</reasoning><prediction>The box is on the target.</prediction>',
      reasoning: 'Push the box up.',
      prediction: 'The box is on the target.',
      answer: 'Up',
      actions: ['Up'],
      droppedActions: [],
    });
  });

  test('grounding_worldmodeling, with whitespace and newlines between tags', () => {
    const text = `
  <think>
    <observation> box left of player </observation>
    <reasoning>push left</reasoning>
    <prediction>box on target</prediction>
  </think>
  <answer> Left </answer>
`;
    const parsed = parse(text, 'grounding_worldmodeling');
    expect(parsed).toMatchObject({
      formatCorrect: true,
      observation: 'box left of player',
      reasoning: 'push left',
      prediction: 'box on target',
      answer: 'Left',
      actions: ['Left'],
    });
    expect(parsed.error).toBeUndefined();
  });

  test('contents may hold other tags and stray angle brackets', () => {
    expect(parse('<think>a < b and <b>bold</b></think><answer>x<y</answer>', 'free_think')).toMatchObject({
      formatCorrect: true,
      think: 'a < b and <b>bold</b>',
      answer: 'x<y',
    });
  });
});

describe('actions', () => {
  test('trimmed, empty ones dropped, capped with the rest flagged', () => {
    expect(parse('<answer> Left ,, Up,Right ,Down </answer>', 'no_think', { maxActions: 3 })).toMatchObject({
      formatCorrect: true,
      actions: ['Left', 'Up', 'Right'],
      droppedActions: ['Down'],
    });
  });

  test('custom separator, or none', () => {
    expect(parse('<answer>a|b</answer>', 'no_think', { separator: '|' }).actions).toEqual(['a', 'b']);
    expect(parse('<answer><svg width="1,2"/></answer>', 'no_think', { separator: null }).actions).toEqual(['<svg width="1,2"/>']);
  });
});

describe('malformed responses: formatCorrect false with a clear error', () => {
  const free = formatTemplate('free_think');
  const cases: Array<[string, OutputFormat, string]> = [
    ['Left', 'no_think', 'expected <answer>…</answer>: missing <answer> at the start; the response ends'],
    ['<answer>Left', 'no_think', 'expected <answer>…</answer>: missing </answer> after <answer>; the response ends'],
    ['<think>hmm</think>', 'free_think', `expected ${free}: missing <answer> after </think>; the response ends`],
    ['<answer>Left</answer><think>x</think>', 'free_think', `expected ${free}: expected <think> at the start, found <answer> at offset 0`],
    ['Sure! <think>x</think><answer>Up</answer>', 'free_think', `expected ${free}: expected only whitespace before <think>, found text "Sure!"`],
    ['<think>x</think>so<answer>Up</answer>', 'free_think', `expected ${free}: expected only whitespace between </think> and <answer>, found text "so"`],
    ['<think>x</think><answer>Up</answer> Done.', 'free_think', `expected ${free}: expected nothing after </answer>, found text "Done."`],
    ['<think>a<think>b</think></think><answer>Up</answer>', 'free_think', `expected ${free}: expected </think> after <think>, found <think> at offset 8`],
    ['<answer>Up</answer><answer>Down</answer>', 'no_think', 'expected <answer>…</answer>: unexpected <answer> at offset 19 (tags must not repeat or nest)'],
    [
      '<think><reasoning>r</reasoning><observation>o</observation></think><answer>Up</answer>',
      'grounding',
      'expected <think><observation>…</observation><reasoning>…</reasoning></think><answer>…</answer>: expected <observation> after <think>, found <reasoning> at offset 7',
    ],
    [
      '<think><observation>o</observation></think><answer>Up</answer>',
      'grounding',
      'expected <think><observation>…</observation><reasoning>…</reasoning></think><answer>…</answer>: expected <reasoning> after </observation>, found </think> at offset 35',
    ],
    [
      '<think>free text<reasoning>r</reasoning><prediction>p</prediction></think><answer>Up</answer>',
      'worldmodeling',
      'expected <think><reasoning>…</reasoning><prediction>…</prediction></think><answer>…</answer>: expected only whitespace between <think> and <reasoning>, found text "free text"',
    ],
    ['<Answer>Up</Answer>', 'no_think', 'expected <answer>…</answer>: missing <answer> at the start; the response ends'],
  ];
  test.each(cases)('%j (%s)', (text, format, error) => {
    expect(parse(text, format)).toEqual({ format, formatCorrect: false, actions: [], droppedActions: [], error });
  });

  test('an empty answer still reports what was parsed', () => {
    expect(parse('<think>t</think><answer></answer>', 'free_think')).toEqual({
      format: 'free_think',
      formatCorrect: false,
      think: 't',
      answer: '',
      actions: [],
      droppedActions: [],
      error: `expected ${free}: the <answer> is empty`,
    });
  });
});

describe('hostile input never throws nor hangs', () => {
  test('10 MB inputs of several shapes parse in well under a second', () => {
    const mb = 10 * 1024 * 1024;
    const unlimited = { maxLength: Number.POSITIVE_INFINITY, maxActions: 3 };
    const cases: Array<[string, OutputFormat, boolean]> = [
      ['x'.repeat(mb), 'grounding_worldmodeling', false],
      ['<'.repeat(mb), 'grounding_worldmodeling', false],
      ['<think>'.repeat(mb / 7), 'grounding_worldmodeling', false],
      ['</'.repeat(mb / 2), 'free_think', false],
      [`<think>${'a'.repeat(mb)}</think><answer>Up</answer>`, 'free_think', true],
      [`<answer>${'Left,'.repeat(mb / 5)}</answer>`, 'no_think', true],
    ];
    for (const [input, format, formatCorrect] of cases) {
      let parsed: ParsedResponse | undefined;
      expect(cpuTime(() => (parsed = parse(input, format, unlimited)))).toBeLessThan(500);
      expect(parsed?.formatCorrect).toBe(formatCorrect);
    }
    expect(parse(`<answer>${'Left,'.repeat(1000)}</answer>`, 'no_think', unlimited).actions).toEqual(['Left', 'Left', 'Left']);
  });

  test('responses over maxLength are rejected without scanning', () => {
    expect(parse('<answer>Up</answer>', 'no_think', { maxLength: 5 }).error).toBe(
      'expected a response of at most 5 characters, received 19',
    );
  });

  test('non-strings do not throw; unknown formats are a programming error', () => {
    expect(parse(42 as unknown as string, 'no_think').error).toBe('expected the response to be a string, received number');
    expect(() => parse('<answer>x</answer>', 'json' as OutputFormat)).toThrow(InvalidArgumentError);
  });
});
