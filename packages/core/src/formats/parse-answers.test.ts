import { describe, expect, test } from 'vitest';
import { cpuTime } from '../__fixtures__/cpu-time';
import { createRng } from '../random/create-rng';
import { parseFinalAnswer } from './parse-final-answer';
import { parsePoints } from './parse-points';
import { extractTagContent } from './scan-tags';
import { splitActions } from './split-actions';

describe('parseFinalAnswer', () => {
  test('<answer> tag first, the last complete one', () => {
    expect(parseFinalAnswer('<answer>1</answer> then <answer> 42 </answer>')).toEqual({ answer: '42', source: 'answer-tag' });
  });

  test('## FINAL_ANSWER: prefix, any case, rest of the line or the next line', () => {
    expect(parseFinalAnswer('The bars add up.\n## FINAL_ANSWER: 42\nThanks')).toEqual({ answer: '42', source: 'final-answer-prefix' });
    expect(parseFinalAnswer('## Final_Answer:\n\n  B) cat ')).toEqual({ answer: 'B) cat', source: 'final-answer-prefix' });
  });

  test('Answer: prefix, the last one at a word start', () => {
    expect(parseFinalAnswer('Answer: 3\nWait. Answer: 4')).toEqual({ answer: '4', source: 'answer-prefix' });
    expect(parseFinalAnswer('The final answer: yes')).toEqual({ answer: 'yes', source: 'answer-prefix' });
    expect(parseFinalAnswer('MyAnswer: no')).toBeUndefined();
  });

  test('nothing found', () => {
    expect(parseFinalAnswer('I am not sure.')).toBeUndefined();
    expect(parseFinalAnswer('<answer></answer>')).toBeUndefined();
    expect(parseFinalAnswer('Answer:')).toBeUndefined();
    expect(parseFinalAnswer(undefined as unknown as string)).toBeUndefined();
  });

  test('characters whose lower case is longer do not shift the answer', () => {
    // 'İ'.toLowerCase() is two code units: an index found in a lower-cased copy would slice the wrong place.
    expect(parseFinalAnswer('İİİ Answer: 1234')).toEqual({ answer: '1234', source: 'answer-prefix' });
    expect(parseFinalAnswer('İİ\n## FINAL_ANSWER: 250 units')).toEqual({ answer: '250 units', source: 'final-answer-prefix' });
    expect(parseFinalAnswer('İİİİ Answer: yes')).toEqual({ answer: 'yes', source: 'answer-prefix' });
    expect(parseFinalAnswer('İ'.repeat(5000) + 'answer: ok')).toEqual({ answer: 'ok', source: 'answer-prefix' });
  });

  test('fuzz: 20,000 noisy texts (seed 23) ending in a known answer give exactly that answer', () => {
    // Noise from characters that change length or form when lower-cased, plus ASCII and newlines.
    const noise = ['İ', 'ẞ', 'Σ', 'ǅ', 'ﬀ', 'ŉ', '\u{1F600}', 'A', 'n', 's', 'w', 'e', 'r', ':', ' ', '\n', '#', '_', '<', '>', 'x', '7'];
    const rng = createRng(23);
    for (let index = 0; index < 20_000; index++) {
      let text = '';
      const length = rng.int(0, 60);
      for (let character = 0; character < length; character++) text += noise[rng.int(0, noise.length - 1)];
      const answer = `${rng.int(0, 99_999)}${noise[rng.int(0, 6)]}z`;
      const prefix = rng.next() < 0.5 ? '\nAnswer: ' : '\n## Final_Answer: ';
      const found = parseFinalAnswer(`${text.replace(/answer|<\/?answer>/gi, '')}${prefix}${answer}`);
      if (found?.answer !== answer) expect({ text, answer, found }).toBe('the answer after the last prefix');
    }
  });

  test('10 MB of answer: prefixes is fast', () => {
    const input = 'xanswer:'.repeat(1024 * 1024);
    let result: unknown = 'not run';
    expect(cpuTime(() => (result = parseFinalAnswer(input, { maxLength: Number.POSITIVE_INFINITY })))).toBeLessThan(500);
    expect(result).toBeUndefined();
  });
});

describe('parsePoints', () => {
  test('ViGoRL points in order', () => {
    expect(parsePoints('The sign at (120, 45) reads STOP; the car at (300,210). Not (1.5, 2) nor (-3, 4) nor ( 5,6).')).toEqual([
      { x: 120, y: 45 },
      { x: 300, y: 210 },
    ]);
    expect(parsePoints('(7 ,\n 8)')).toEqual([{ x: 7, y: 8 }]);
  });

  test('caps and hostile input', () => {
    expect(parsePoints('(1,2)'.repeat(10), { maxPoints: 3 })).toHaveLength(3);
    expect(parsePoints(`(${'9'.repeat(30)}, 1)`)).toEqual([]);
    for (const input of [`(${'1'.repeat(2_000_000)}${' '.repeat(2_000_000)}`, '(1 '.repeat(1_500_000)]) {
      expect(cpuTime(() => parsePoints(input))).toBeLessThan(500);
    }
  });
});

describe('splitActions and extractTagContent', () => {
  test('splitActions', () => {
    expect(splitActions(' Left, ,Up ,Right,Down', { maxActions: 2 })).toEqual({ actions: ['Left', 'Up'], droppedActions: ['Right', 'Down'] });
    expect(splitActions('a b', { separator: ' ' }).actions).toEqual(['a', 'b']);
    expect(splitActions('', {})).toEqual({ actions: [], droppedActions: [] });
  });

  test('extractTagContent is lenient', () => {
    expect(extractTagContent('blah <answer> B </answer> more', 'answer')).toBe('B');
    expect(extractTagContent('<answer>B', 'answer')).toBeUndefined();
    expect(extractTagContent('none', 'answer')).toBeUndefined();
  });
});
