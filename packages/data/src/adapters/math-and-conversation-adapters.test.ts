import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { Scratch } from '../../test/dataset-files';
import { convertDataset } from '../convert/convert-dataset';

let scratch: Scratch;
beforeEach(() => {
  scratch = new Scratch();
});
afterEach(() => scratch.remove());

describe('TabMWP', () => {
  test('problems_test.json keyed by id with tables/<id>.png: free text and multiple choice', async () => {
    const input = scratch.json('data/tabmwp/problems_test.json', {
      '8': { question: 'How much money does Ted need to buy 3 books?', choices: null, answer: '1,050', unit: '$', table_title: 'Prices', table: 'book | $350', table_for_pd: {}, row_num: 2, column_num: 2, solution: '3 × 350 = 1,050', ques_type: 'free_text', ans_type: 'integer_number', grade: 5, split: 'test' },
      '9': { question: 'Is the number of apples even or odd?', choices: ['even', 'odd'], answer: 'odd', unit: null, table_title: 'Fruit', ques_type: 'multi_choice', ans_type: 'extractive_text', grade: 3, split: 'test' },
    });
    await scratch.png('data/tabmwp/tables/8.png');
    await scratch.png('data/tabmwp/tables/9.png');
    await convertDataset({ dataset: 'TabMWP', input, output: scratch.path('tabmwp.jsonl') });
    expect(scratch.tasks('tabmwp.jsonl')).toEqual([
      { id: 'tabmwp-8', dataset: 'TabMWP', taskFamily: 'ood', images: ['data/tabmwp/tables/8.png'], question: 'How much money does Ted need to buy 3 books?', answer: '1,050', answerType: 'number', metadata: { ques_type: 'free_text', ans_type: 'integer_number', unit: '$', grade: 5, table_title: 'Prices', split: 'test' } },
      { id: 'tabmwp-9', dataset: 'TabMWP', taskFamily: 'ood', images: ['data/tabmwp/tables/9.png'], question: 'Is the number of apples even or odd?', choices: ['even', 'odd'], answer: 'odd', answerType: 'multiple-choice', metadata: { answer_letter: 'B', answer_index: 1, ques_type: 'multi_choice', ans_type: 'extractive_text', grade: 3, table_title: 'Fruit', split: 'test' } },
    ]);
  });
});

describe('MathVista', () => {
  test('testmini.json keyed by pid: free-form numbers keep precision and skills for the checker', async () => {
    const input = scratch.json('data/testmini.json', {
      '1': { question: 'When a spring does work on an object, by what distance d is the spring compressed?', image: 'images/1.jpg', choices: null, unit: null, precision: 1, answer: '1.2', question_type: 'free_form', answer_type: 'float', pid: '1', metadata: { split: 'testmini', source: 'SciBench', category: 'math-targeted-vqa', task: 'textbook question answering', context: 'scientific figure', grade: 'college', skills: ['scientific reasoning'] } },
      '3': { question: 'As shown in the figure, find ∠BOC.', image: 'images/3.jpg', choices: ['35°', '55°', '145°', '135°'], unit: null, precision: null, answer: '145°', question_type: 'multi_choice', answer_type: 'text', pid: '3', metadata: { split: 'testmini', source: 'GeoQA+', skills: ['geometry reasoning'] } },
    });
    await scratch.png('data/images/1.jpg');
    await scratch.png('data/images/3.jpg');
    await convertDataset({ dataset: 'MathVista', input, output: scratch.path('mathvista.jsonl') });
    expect(scratch.tasks('mathvista.jsonl')).toEqual([
      {
        id: 'mathvista-1',
        dataset: 'MathVista',
        taskFamily: 'ood',
        images: ['data/images/1.jpg'],
        question: 'When a spring does work on an object, by what distance d is the spring compressed?',
        answer: '1.2',
        answerType: 'number',
        metadata: { split: 'testmini', source: 'SciBench', category: 'math-targeted-vqa', task: 'textbook question answering', context: 'scientific figure', grade: 'college', skills: ['scientific reasoning'], question_type: 'free_form', answer_type: 'float', precision: 1, pid: '1' },
      },
      {
        id: 'mathvista-3',
        dataset: 'MathVista',
        taskFamily: 'ood',
        images: ['data/images/3.jpg'],
        question: 'As shown in the figure, find ∠BOC.',
        choices: ['35°', '55°', '145°', '135°'],
        answer: '145°',
        answerType: 'multiple-choice',
        metadata: { split: 'testmini', source: 'GeoQA+', skills: ['geometry reasoning'], question_type: 'multi_choice', answer_type: 'text', pid: '3', answer_letter: 'C', answer_index: 2 },
      },
    ]);
  });
});

describe('vlmgym', () => {
  test("VISTA-Gym's unified samples, JSON array: choices, numbers, annotator lists", async () => {
    const input = scratch.json('vlmgym/test.json', [
      { id: 'ai2d_3', dataset: 'ai2d', image_path: 'images/ai2d_3.png', question: 'Which stage comes after the egg?', answer: 'larva', choices: ['larva', 'pupa', 'adult'], task: 'science', metadata: { answer_letter: 'A', answer_index: 0 } },
      { id: 'chartqa_17', dataset: 'chartqa', image_path: 'images/chartqa_17.png', question: 'What is the highest value?', answer: '45', choices: null, task: 'chart', metadata: {} },
      { id: 'vizwiz_2', dataset: 'vizwiz', image_path: 'images/vizwiz_2.png', question: 'What is this?', answer: ['soup', 'soup', 'tomato soup'], choices: null, task: 'science', metadata: { answer_type: 'text' } },
    ]);
    for (const name of ['ai2d_3', 'chartqa_17', 'vizwiz_2']) await scratch.png(`vlmgym/images/${name}.png`);
    await convertDataset({ dataset: 'vlmgym', input, output: scratch.path('vlmgym/tasks.jsonl') });
    expect(scratch.tasks('vlmgym/tasks.jsonl')).toEqual([
      { id: 'ai2d_3', dataset: 'ai2d', taskFamily: 'science', images: ['images/ai2d_3.png'], question: 'Which stage comes after the egg?', choices: ['larva', 'pupa', 'adult'], answer: 'larva', answerType: 'multiple-choice', metadata: { answer_letter: 'A', answer_index: 0 } },
      { id: 'chartqa_17', dataset: 'chartqa', taskFamily: 'chart', images: ['images/chartqa_17.png'], question: 'What is the highest value?', answer: '45', answerType: 'number' },
      { id: 'vizwiz_2', dataset: 'vizwiz', taskFamily: 'science', images: ['images/vizwiz_2.png'], question: 'What is this?', answer: ['soup', 'soup', 'tomato soup'], answerType: 'text', metadata: { answer_type: 'text' } },
    ]);
  });
});

describe('LLaVA', () => {
  test('conversations: each human/gpt pair is a task; <image> stays in the question; JSONL streams', async () => {
    const input = scratch.jsonl('llava/geo.jsonl', [
      { id: 'geo-1', image: 'images/1.png', conversations: [{ from: 'human', value: '<image>\nIs AB parallel to CD?' }, { from: 'gpt', value: 'Yes' }, { from: 'human', value: 'What is angle 2 in degrees?' }, { from: 'gpt', value: '130' }] },
      { id: 'geo-2', image: 'images/2.png', conversations: [{ from: 'human', value: '<image>\nName the shape.' }, { from: 'gpt', value: 'a trapezoid' }] },
    ]);
    await scratch.png('llava/images/1.png');
    await scratch.png('llava/images/2.png');
    const summary = await convertDataset({ dataset: 'llava', input, datasetName: 'GeoQA', taskFamily: 'geometry', output: scratch.path('llava/tasks.jsonl') });
    expect(summary).toMatchObject({ read: 2, written: 3 });
    expect(scratch.tasks('llava/tasks.jsonl')).toEqual([
      { id: 'geo-1-1', dataset: 'GeoQA', taskFamily: 'geometry', images: ['images/1.png'], question: '<image>\nIs AB parallel to CD?', answer: 'Yes', answerType: 'yes-no', metadata: { turn: 1, turns: 2 } },
      { id: 'geo-1-2', dataset: 'GeoQA', taskFamily: 'geometry', images: ['images/1.png'], question: 'What is angle 2 in degrees?', answer: '130', answerType: 'number', metadata: { turn: 2, turns: 2 } },
      { id: 'geo-2', dataset: 'GeoQA', taskFamily: 'geometry', images: ['images/2.png'], question: '<image>\nName the shape.', answer: 'a trapezoid', answerType: 'text' },
    ]);
  });
});
