import { describe, expect, it } from 'vitest';
import { distanceToBox, pointInImage } from '../checkers/grounding-checkers';
import { targetBoxOf } from '../tasks/target-box';
import { BACKTRACK_MESSAGE, groundedTaskPrompt, multiTurnSystemPrompt } from './grounded-prompts';
import { callPoint, parseGroundedResponse, parseGroundedTurn, readAnswer, searchCoordinateCall } from './grounded-turn';

const crop = (x: number | string, y: number | string, think = 'I look closer.') => `<think>${think}</think>\n<tool_call>\n{"name": "search_coordinate", "arguments": {"coordinate": [${x}, ${y}]}}\n</tool_call>`;
const answer = (letter: string, think = 'The crop shows the sign.') => `<think>${think}</think>\n<answer>${letter}</answer>`;

describe('parseGroundedTurn', () => {
  it('reads tool turns, answers and what is wrong with them, without throwing', () => {
    expect(parseGroundedTurn(crop(100, 200, 'The left side (100, 200).'))).toEqual({
      kind: 'tool',
      wellFormed: true,
      think: 'The left side (100, 200).',
      call: { name: 'search_coordinate', arguments: { coordinate: [100, 200] } },
      point: { x: 100, y: 200 },
    });
    expect(parseGroundedTurn(answer('B'))).toEqual({ kind: 'answer', wellFormed: true, think: 'The crop shows the sign.', answer: 'B' });
    expect(parseGroundedTurn(`${crop(1, 2)}\n${crop(3, 4)}`).error).toBe('expected exactly <think>…</think><tool_call>…</tool_call>, found the tags <think></think><tool_call></tool_call><think></think><tool_call></tool_call>');
    expect(parseGroundedTurn(`${crop(1, 2)}<answer>B</answer>`).wellFormed).toBe(false);
    expect(parseGroundedTurn('Sure! ' + answer('B')).error).toBe('expected only whitespace around <think>…</think><answer>…</answer>, found "Sure!"');
    expect(parseGroundedTurn('<think>x</think><tool_call>{"name": </tool_call>')).toMatchObject({ kind: 'invalid', wellFormed: false });
    expect(parseGroundedTurn('<think>x</think><tool_call>{"name": "image_zoom_in_tool", "arguments": {"bbox_2d": [0, 0, 40, 40]}}</tool_call>', { toolNames: ['search_coordinate', 'image_zoom_in_tool'] })).toMatchObject({ wellFormed: true, point: { x: 20, y: 20 } });
    for (const text of ['', '<answer>', 'x'.repeat(100_000), '<think><think></think>']) expect(parseGroundedTurn(text).wellFormed).toBe(false);
  });
});

describe("ViGoRL's call, answers and prompts", () => {
  it('writes the crop call as the model does, and reads it back', () => {
    expect(searchCoordinateCall({ x: 12, y: 40 })).toBe('<tool_call>\n{"name": "search_coordinate", "arguments": {"coordinate": [12, 40]}}\n</tool_call>');
    expect(crop(12, 40)).toBe(`<think>I look closer.</think>\n${searchCoordinateCall({ x: 12, y: 40 })}`);
    expect(callPoint({ name: 'search_coordinate', arguments: { coordinate: [12, 40] } })).toEqual({ x: 12, y: 40 });
    expect(callPoint({ name: 'image_zoom_in_tool', arguments: { bbox_2d: [0, 0, 40, 20] } })).toEqual({ x: 20, y: 10 });
    expect(callPoint({ name: 'search_coordinate', arguments: { coordinate: [12] } })).toBeUndefined();
  });

  it('reads the first complete answer leniently, and a single-turn response with its points', () => {
    expect([readAnswer('x <answer> B </answer> <answer>C</answer>'), readAnswer('<answer></answer>'), readAnswer('<answer>B')]).toEqual(['B', undefined, undefined]);
    expect(parseGroundedResponse('<think>\nThe sign (120, 45).\n</think>\n<answer>B</answer>')).toEqual({ wellFormed: true, think: 'The sign (120, 45).', answer: 'B', points: [{ x: 120, y: 45 }] });
    expect(parseGroundedResponse('<think>The button (3, 4).</think><answer>the button</answer>', { answerType: 'point' })).toMatchObject({ wellFormed: false, answer: 'the button' });
  });

  it('poses the task and the multi-turn convention', () => {
    expect(groundedTaskPrompt({ question: 'What colour is the sign?', choices: ['red', 'green'], answerType: 'multiple-choice' })).toBe(
      '<image>\nWhat colour is the sign?\nChoices:\n(A) red\n(B) green\nAnswer with the letter of the correct option.',
    );
    expect(multiTurnSystemPrompt({ maxCrops: 1 })).toContain('You may look closer at most 1 time; never look at the same point twice.');
    expect(BACKTRACK_MESSAGE).toBe("Wait, this seems off. Let's try something else.");
  });
});

describe('image geometry', () => {
  it('a point is on the image when 0 ≤ x < width and 0 ≤ y < height; its distance to a box is 0 inside', () => {
    const size = { width: 800, height: 600 };
    expect([pointInImage({ x: 0, y: 0 }, size), pointInImage({ x: 799, y: 599 }, size), pointInImage({ x: 800, y: 10 }, size), pointInImage({ x: 10, y: -1 }, size)]).toEqual([true, true, false, false]);
    expect([distanceToBox({ x: 15, y: 15 }, [10, 10, 20, 20]), distanceToBox({ x: 20, y: 10 }, [10, 10, 20, 20]), distanceToBox({ x: 23, y: 24 }, [10, 10, 20, 20])]).toEqual([0, 0, 5]);
  });

  it("finds where a task's answer lies: a click's box, else the metadata's target box", () => {
    expect(targetBoxOf({ answer: [30, 40, 10, 20], answerType: 'point' })).toEqual([10, 20, 30, 40]);
    expect(targetBoxOf({ answer: 'B', answerType: 'multiple-choice', metadata: { targetBox: [1, 2, 3, 4] } })).toEqual([1, 2, 3, 4]);
    expect(targetBoxOf({ answer: 'B', answerType: 'multiple-choice', metadata: { bboxes: [[5, 6, 7, 8]] } })).toEqual([5, 6, 7, 8]);
    expect(targetBoxOf({ answer: 'B', answerType: 'multiple-choice' })).toBeUndefined();
  });
});
