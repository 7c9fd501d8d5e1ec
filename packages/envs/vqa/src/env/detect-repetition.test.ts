import { describe, expect, it } from 'vitest';
import { detectRepetition } from './detect-repetition';
import { vistaR1Terms } from './vista-rewards';

const NATURAL =
  'The chart shows four bars. The tallest bar belongs to 2019 and reaches about 45 units. The next one is 2018 with 38. ' +
  'So the highest value is 45, which I read from the axis on the left.';

describe('detectRepetition', () => {
  it('leaves ordinary reasoning alone', () => {
    expect(detectRepetition(NATURAL)).toMatchObject({ level: 'none', penalty: 0, sentenceRepeats: 1 });
    expect(detectRepetition('<answer>45</answer>').penalty).toBe(0);
    expect(detectRepetition(' '.repeat(5000)).penalty).toBe(0);
  });
  it('grades repeated sentences, duplicate 4-grams and character loops', () => {
    const sentence = 'Let me look at the tallest bar in the chart again. ';
    expect(detectRepetition(NATURAL + sentence.repeat(2))).toMatchObject({ level: 'mild', penalty: -1.5, sentenceRepeats: 2 });
    expect(detectRepetition(NATURAL + sentence.repeat(3))).toMatchObject({ level: 'moderate', penalty: -2, sentenceRepeats: 3 });
    expect(detectRepetition(sentence.repeat(6))).toMatchObject({ level: 'severe', penalty: -3, sentenceRepeats: 6 });
    expect(detectRepetition('so so so so '.repeat(10))).toMatchObject({ level: 'severe', penalty: -3 });
    expect(detectRepetition('x'.repeat(100_000))).toMatchObject({ level: 'severe', penalty: -3, loopLength: 100_000 });
    expect(detectRepetition('ab'.repeat(99)).loopLength).toBe(198);
    expect(detectRepetition('ab'.repeat(99)).penalty).toBe(0); // a loop of 198 characters: under 200
    expect(detectRepetition('ab'.repeat(100)).penalty).toBe(-3);
  });
});

describe('vistaR1Terms', () => {
  it('R = R_rep + R_format + R_correct, correctness only for clean trajectories', () => {
    expect(vistaR1Terms([{ wellFormed: true, repetitionPenalty: 0, correct: true }])).toEqual({ repetition: 0, format: 1, correct: 1 });
    expect(vistaR1Terms([{ wellFormed: true, repetitionPenalty: 0, correct: false }])).toEqual({ repetition: 0, format: 1, correct: 0 });
    expect(
      vistaR1Terms([
        { wellFormed: false, repetitionPenalty: 0, correct: false },
        { wellFormed: true, repetitionPenalty: 0, correct: true },
      ]),
    ).toEqual({ repetition: 0, format: -1, correct: 0 });
    expect(vistaR1Terms([{ wellFormed: true, repetitionPenalty: -2, correct: true }])).toEqual({ repetition: -2, format: 1, correct: 0 });
  });
});
