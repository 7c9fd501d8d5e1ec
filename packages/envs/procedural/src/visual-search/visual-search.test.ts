import { checkMultipleChoice } from '@saccade/core';
import type { ImageData } from '@saccade/spec';
import { describe, expect, it } from 'vitest';
import { COLOURS, type ColourName } from '../common/palette';
import { components, indices, pixelsOf } from '../../test/pixels';
import { createVisualSearchSource, type Box } from './visual-search-generator';

describe('visual search generator', () => {
  it('the recorded box is where the target colour is, nothing else is near it, and the answer is its colour (8 seeds)', async () => {
    for (const [index, difficulty] of indices(8).map((index) => [index, index / 7] as const)) {
      const task = await createVisualSearchSource({ difficulty }).get(index);
      const image = task.images[0] as ImageData;
      expect(image.width).toBeGreaterThanOrEqual(2048);
      const box = task.metadata!.targetBox as Box;
      const colour = task.answer as ColourName;
      const pixels = await pixelsOf(image);
      // The target's pixels, searched in its box with room around it: one blob filling the box.
      const around: Box = [box[0] - 6, box[1] - 6, box[2] + 6, box[3] + 6];
      const blobs = components(pixels, COLOURS[colour], around);
      expect(blobs.length, `${task.id}: blobs of ${colour} near the box`).toBe(1);
      const [blob] = blobs;
      expect(blob!.minX).toBeGreaterThanOrEqual(Math.floor(box[0]));
      expect(blob!.maxX).toBeLessThanOrEqual(Math.ceil(box[2]));
      expect(blob!.minY).toBeGreaterThanOrEqual(Math.floor(box[1]));
      expect(blob!.maxY).toBeLessThanOrEqual(Math.ceil(box[3]));
      expect(blob!.maxX - blob!.minX + 1).toBeGreaterThan((box[2] - box[0]) * 0.8);
      expect(blob!.maxY - blob!.minY + 1).toBeGreaterThan((box[3] - box[1]) * 0.8);
      // Only background within 4 px outside the box: no distractor touches the target.
      for (let x = Math.round(box[0]) - 5; x <= Math.round(box[2]) + 5; x++) {
        for (const y of [Math.round(box[1]) - 5, Math.round(box[3]) + 5]) expect(Math.min(...pixels.rgb(x, y))).toBeGreaterThan(200);
      }
      expect(checkMultipleChoice(String.fromCharCode(65 + (task.metadata!.answer_index as number)), task).correct).toBe(true);
    }
  });

  it('difficulty shrinks the target and adds distractors', () => {
    const target = (difficulty: number) => createVisualSearchSource({ difficulty }).generate(3).metadata as { targetBox: Box; distractors: number };
    const easy = target(0);
    const hard = target(1);
    expect(easy.targetBox[2] - easy.targetBox[0]).toBeGreaterThan(2.5 * (hard.targetBox[2] - hard.targetBox[0]));
    expect(easy.distractors).toBe(40);
    expect(hard.distractors).toBe(400);
  });

  it('asking the shape: the target is the only object of its colour, and the answer is its shape (4 seeds)', async () => {
    for (const index of indices(4)) {
      const source = createVisualSearchSource({ difficulty: 0, question: 'shape' });
      const task = await source.get(index);
      const { shape, colour } = task.metadata!.target as { shape: string; colour: ColourName };
      expect(task.answer).toBe(shape);
      expect(task.answerType).toBe('text');
      expect(task.choices).toBeUndefined();
      expect(task.question).toBe(`There is exactly one ${colour} shape in this image; it is small. Is it a star, a cross or a ring?`);
      const blobs = components(await pixelsOf(task.images[0] as ImageData), COLOURS[colour]);
      expect(blobs.length, `${task.id}: objects drawn in ${colour}`).toBe(1);
      const box = task.metadata!.targetBox as Box;
      expect(blobs[0]!.minX).toBeGreaterThanOrEqual(Math.floor(box[0]));
      expect(blobs[0]!.maxY).toBeLessThanOrEqual(Math.ceil(box[3]));
      expect(checkMultipleChoice(shape, task).correct).toBe(true);
      expect(checkMultipleChoice(shape === 'star' ? 'ring' : 'star', task).correct).toBe(false);
    }
    // The colour question draws the same scene as before the option existed.
    expect(createVisualSearchSource({ difficulty: 0.5 }).generate(5)).toEqual(createVisualSearchSource({ difficulty: 0.5, question: 'colour' }).generate(5));
    expect(() => createVisualSearchSource({ question: 'size' as never })).toThrow(/question: expected colour \| shape/);
    // A fixed target colour: the same scenes' layout, every target red and the only red object.
    for (const index of indices(3)) {
      const task = await createVisualSearchSource({ difficulty: 0, question: 'shape', targetColour: 'red' }).get(index);
      expect(task.question).toBe('There is exactly one red shape in this image; it is small. Is it a star, a cross or a ring?');
      expect(components(await pixelsOf(task.images[0] as ImageData), COLOURS.red)).toHaveLength(1);
    }
    expect(() => createVisualSearchSource({ targetColour: 'red' })).toThrow(/targetColour: expected with question 'shape', one of red, green/);
    expect(() => createVisualSearchSource({ question: 'shape', targetColour: 'pink' as never })).toThrow(/targetColour/);
  });

  it('centres the target in an inner cell of a targetGrid × targetGrid grid, and refuses a grid it cannot use', () => {
    const source = createVisualSearchSource({ difficulty: 0, question: 'shape', targetColour: 'red', targetGrid: 8 });
    const cells = new Set<string>();
    for (let index = 0; index < 40; index++) {
      const { x, y } = source.generate(index).metadata!.target as { x: number; y: number };
      // 256-px cells of a 2048-px image: centres at 128 + 256·k, k from 1 to 6 (no edge cell).
      for (const value of [x, y]) {
        expect((value - 128) % 256).toBe(0);
        expect(value).toBeGreaterThanOrEqual(384);
        expect(value).toBeLessThanOrEqual(1664);
      }
      cells.add(`${x},${y}`);
    }
    expect(cells.size).toBeGreaterThan(20);
    expect(() => createVisualSearchSource({ targetGrid: 2 })).toThrow(/targetGrid: expected an integer from 3 to 16 \(cells a side\)/);
  });

  it('refuses images smaller than 2048 px', () => {
    expect(() => createVisualSearchSource({ size: 1024 })).toThrow(/size: expected an integer from 2048 to 4096/);
  });
});
