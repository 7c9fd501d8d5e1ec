import { describe, expect, it } from 'vitest';
import { oracleAnswer } from './oracle-answer';
import { taskPrompt, vqaSystemPrompt } from './task-prompt';
import type { VisionQATask } from './vision-qa-task';

const task = (fields: Partial<VisionQATask>): VisionQATask => ({ id: 't', dataset: 'Test', taskFamily: 'other', images: ['a.png'], question: 'Q?', answer: 'x', answerType: 'text', ...fields });

describe('taskPrompt', () => {
  it('puts one <image> per image before the question, then the options, the hint and the format', () => {
    const prompt = taskPrompt(task({ images: ['a.png', 'b.png'], question: 'Which is larger?', choices: ['left', 'right'], answer: 'right', answerType: 'multiple-choice' }), 'final-answer');
    expect(prompt).toBe(
      '<image>\n<image>\nWhich is larger?\nChoices:\n(A) left\n(B) right\nAnswer with the letter of the correct option.\nPut your final answer, and nothing else, inside <answer>…</answer>.',
    );
  });

  it("keeps the question's own placeholders when it has one per image", () => {
    expect(taskPrompt(task({ question: 'Look: <image> What is it?' }), 'final-answer').split('\n')[0]).toBe('Look: <image> What is it?');
  });

  it('names the strict format in the system prompt', () => {
    expect(vqaSystemPrompt('free_think').split('\n')[1]).toBe('Respond exactly in the format <think>…</think><answer>…</answer>, with only your final answer inside <answer>…</answer>.');
  });
});

describe('oracleAnswer', () => {
  it("writes the reference answer as the task's answer type asks", () => {
    expect(oracleAnswer(task({ choices: ['a', 'b', 'c'], answer: 'c', answerType: 'multiple-choice' }))).toBe('C');
    expect(oracleAnswer(task({ answer: [2, 1, 6, 5], answerType: 'point' }))).toBe('(4, 3)');
    expect(oracleAnswer(task({ answer: [2, 1, 6, 5], answerType: 'box' }))).toBe('[2, 1, 6, 5]');
    expect(oracleAnswer(task({ answer: true, answerType: 'yes-no' }))).toBe('yes');
    expect(oracleAnswer(task({ answer: ['red', 'blue'], answerType: 'list' }))).toBe('red, blue');
    expect(oracleAnswer(task({ answer: ['navy', 'Blue', 'blue.', 'navy', 'blue'] }))).toBe('Blue');
  });
});
