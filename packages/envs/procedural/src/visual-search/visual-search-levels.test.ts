import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createVisualSearchSource, type VisualSearchOptions } from './visual-search-generator';

const digest = (svg: string) => createHash('sha256').update(svg).digest('hex').slice(0, 16);

describe('visual search: the options that existed before levels draw the same tasks', () => {
  // Recorded from the generator before lookalikes, relation questions, targetRadius and levels existed.
  const pinned: [VisualSearchOptions, number, string, Record<string, unknown>][] = [
    [{}, 0, 'e7cb8853f13e7d0f', { question: 'There is exactly one cross in this image; it is small. What is the colour of the cross?', answer: 'purple', choices: ['purple', 'blue', 'green', 'red'], metadata: { answer_index: 0, target: { shape: 'cross', colour: 'purple', x: 1220, y: 1377, radius: 20 }, targetBox: [1200, 1357, 1240, 1397], distractors: 220 } }],
    [{ difficulty: 1 }, 7, '02bbfd04ab54643b', { question: 'There is exactly one cross in this image; it is small. What is the colour of the cross?', answer: 'red', choices: ['brown', 'green', 'red', 'blue'], metadata: { answer_index: 2, target: { shape: 'cross', colour: 'red', x: 926, y: 178, radius: 10 }, targetBox: [916, 168, 936, 188], distractors: 400 } }],
    [{ difficulty: 0.3, question: 'shape' }, 2, 'ef7a44958c2332e9', { question: 'There is exactly one purple shape in this image; it is small. Is it a star, a cross or a ring?', answer: 'cross', metadata: { target: { shape: 'cross', colour: 'purple', x: 1842, y: 1945, radius: 24 }, targetBox: [1818, 1921, 1866, 1969], distractors: 148 } }],
    [{ difficulty: 0, question: 'shape', targetColour: 'red', targetGrid: 8 }, 11, 'b010060e3b084976', { question: 'There is exactly one red shape in this image; it is small. Is it a star, a cross or a ring?', answer: 'cross', metadata: { target: { shape: 'cross', colour: 'red', x: 896, y: 1152, radius: 30 }, targetBox: [866, 1122, 926, 1182], distractors: 40 } }],
    [{ size: 3000, difficulty: 0.6, split: 'test' }, 4, '6d9aaa1873115783', { question: 'There is exactly one ring in this image; it is small. What is the colour of the ring?', answer: 'brown', choices: ['blue', 'green', 'orange', 'brown'], metadata: { answer_index: 3, target: { shape: 'ring', colour: 'brown', x: 1390, y: 2793, radius: 18 }, targetBox: [1372, 2775, 1408, 2811], distractors: 256 } }],
  ];

  it.each(pinned)('%j, task %i', (options, index, svgDigest, expected) => {
    const { svg, width, height, seed, answerType, ...rest } = createVisualSearchSource(options).generate(index);
    expect(digest(svg)).toBe(svgDigest);
    expect(rest).toEqual(expected);
    expect(answerType).toBe(expected.choices === undefined ? 'text' : 'multiple-choice');
    expect([width, height]).toEqual(options.size === undefined ? [2048, 2048] : [options.size, options.size]);
    expect(seed).toBe(options.split === 'test' ? 2 ** 31 + index : index);
  });
});
