import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { Scratch } from '../../test/dataset-files';
import { convertDataset } from '../convert/convert-dataset';

let scratch: Scratch;
beforeEach(() => {
  scratch = new Scratch();
});
afterEach(() => scratch.remove());

describe('ScienceQA', () => {
  test('problems.json keyed by id, images/<split>/<id>/image.png; --split keeps one split and counts the rest', async () => {
    const input = scratch.json('data/scienceqa/problems.json', {
      '1': { question: 'Which of these states is farthest north?', choices: ['West Virginia', 'Louisiana', 'Arizona', 'Oklahoma'], answer: 0, hint: '', image: 'image.png', task: 'closed choice', grade: 'grade2', subject: 'social science', topic: 'geography', category: 'Geography', skill: 'Read a map: cardinal directions', lecture: 'Maps have four cardinal directions…', solution: 'To find the answer…', split: 'test' },
      '2': { question: 'Which tense does the sentence use?', choices: ['past tense', 'future tense'], answer: 1, hint: 'Mona will print her name.', image: null, task: 'closed choice', grade: 'grade4', subject: 'language science', topic: 'verbs', category: 'Verb tense', skill: 'Is the sentence in the past or future?', split: 'test' },
      '3': { question: 'Which animal is a mammal?', choices: ['frog', 'dog'], answer: 1, hint: '', image: 'image.png', split: 'train', subject: 'natural science' },
    });
    await scratch.png('data/scienceqa/images/test/1/image.png');
    const summary = await convertDataset({ dataset: 'ScienceQA', input, split: 'test', output: scratch.path('sqa.jsonl') });
    expect(summary).toMatchObject({ read: 3, written: 2, skipped: 0, leftOut: 1, leftOutReasons: { 'split train': 1 } });
    expect(scratch.tasks('sqa.jsonl')).toEqual([
      {
        id: 'scienceqa-1',
        dataset: 'ScienceQA',
        taskFamily: 'science',
        images: ['data/scienceqa/images/test/1/image.png'],
        question: 'Which of these states is farthest north?',
        choices: ['West Virginia', 'Louisiana', 'Arizona', 'Oklahoma'],
        answer: 'West Virginia',
        answerType: 'multiple-choice',
        metadata: { answer_letter: 'A', answer_index: 0, split: 'test', subject: 'social science', topic: 'geography', category: 'Geography', skill: 'Read a map: cardinal directions', grade: 'grade2', task: 'closed choice' },
      },
      {
        id: 'scienceqa-2',
        dataset: 'ScienceQA',
        taskFamily: 'science',
        images: [],
        question: 'Which tense does the sentence use?\nContext: Mona will print her name.',
        choices: ['past tense', 'future tense'],
        answer: 'future tense',
        answerType: 'multiple-choice',
        metadata: { answer_letter: 'B', answer_index: 1, split: 'test', subject: 'language science', topic: 'verbs', category: 'Verb tense', skill: 'Is the sentence in the past or future?', grade: 'grade4', task: 'closed choice' },
      },
    ]);
  });
});

describe('AI2D', () => {
  test('questions/<image>.json holds several questions; --split test uses ai2d_test_ids.csv', async () => {
    scratch.json('ai2d/questions/0.png.json', {
      imageName: '0.png',
      questions: {
        'Which stage comes after the egg?': { abcLabel: false, answerTexts: ['larva', 'pupa', 'adult', 'egg'], correctAnswer: 0, questionId: '0.png-0' },
        'Which letter shows the pupa?': { abcLabel: true, answerTexts: ['A', 'B', 'C', 'D'], correctAnswer: 2, questionId: '0.png-1' },
      },
    });
    scratch.json('ai2d/questions/1.png.json', { imageName: '1.png', questions: { 'What eats grass?': { abcLabel: false, answerTexts: ['cow', 'lion'], correctAnswer: 0, questionId: '1.png-0' } } });
    scratch.write('ai2d/ai2d_test_ids.csv', '0\n');
    await scratch.png('ai2d/images/0.png');
    const summary = await convertDataset({ dataset: 'ai2d', input: scratch.path('ai2d/questions'), split: 'test', output: scratch.path('ai2d.jsonl') });
    expect(summary).toMatchObject({ read: 2, written: 2, leftOut: 1, leftOutReasons: { 'split train': 1 } });
    expect(scratch.tasks('ai2d.jsonl')).toEqual([
      { id: 'ai2d-0.png-0', dataset: 'AI2D', taskFamily: 'science', images: ['ai2d/images/0.png'], question: 'Which stage comes after the egg?', choices: ['larva', 'pupa', 'adult', 'egg'], answer: 'larva', answerType: 'multiple-choice', metadata: { answer_letter: 'A', answer_index: 0, abcLabel: false } },
      { id: 'ai2d-0.png-1', dataset: 'AI2D', taskFamily: 'science', images: ['ai2d/images/0.png'], question: 'Which letter shows the pupa?', choices: ['A', 'B', 'C', 'D'], answer: 'C', answerType: 'multiple-choice', metadata: { answer_letter: 'C', answer_index: 2, abcLabel: true } },
    ]);
  });
});

describe('VizWiz', () => {
  test('Annotations/val.json with val/: every annotator answer kept for the VQA score', async () => {
    const input = scratch.json('Annotations/val.json', [
      {
        image: 'VizWiz_val_00000000.jpg',
        question: 'Ok. There is another picture I hope it is a better one.',
        answers: [
          { answer: 'unanswerable', answer_confidence: 'yes' },
          { answer: 'unanswerable', answer_confidence: 'yes' },
          { answer: 'cooking instructions', answer_confidence: 'maybe' },
        ],
        answer_type: 'unanswerable',
        answerable: 0,
      },
    ]);
    await scratch.png('val/VizWiz_val_00000000.jpg');
    await convertDataset({ dataset: 'vizwiz', input, output: scratch.path('vizwiz.jsonl') });
    expect(scratch.tasks('vizwiz.jsonl')).toEqual([
      {
        id: 'vizwiz-VizWiz_val_00000000',
        dataset: 'VizWiz',
        taskFamily: 'science',
        images: ['val/VizWiz_val_00000000.jpg'],
        question: 'Ok. There is another picture I hope it is a better one.',
        answer: ['unanswerable', 'unanswerable', 'cooking instructions'],
        answerType: 'text',
        metadata: { answer_type: 'unanswerable', answerable: 0, answer_confidence: ['yes', 'yes', 'maybe'] },
      },
    ]);
  });
});

describe('IconQA', () => {
  test('<split>/<ques_type>/<id>/data.json: text options, picture options and fill-in-the-blank', async () => {
    scratch.json('iconqa/test/choose_txt/100/data.json', { question: 'What time is shown on the clock?', choices: ['3:00', '9:00'], answer: 1, ques_type: 'choose_txt', grade: 'grade1', label: 'read clocks' });
    await scratch.png('iconqa/test/choose_txt/100/image.png');
    scratch.json('iconqa/test/choose_img/200/data.json', { question: 'Which shape is a circle?', choices: ['choice_0.png', 'choice_1.png'], answer: 0, ques_type: 'choose_img', grade: 'prek', label: 'shapes' });
    await scratch.png('iconqa/test/choose_img/200/image.png');
    await scratch.png('iconqa/test/choose_img/200/choice_0.png');
    await scratch.png('iconqa/test/choose_img/200/choice_1.png');
    scratch.json('iconqa/test/fill_in_blank/300/data.json', { question: 'How many dots are there?', choices: [], answer: '7', ques_type: 'fill_in_blank', grade: 'grade1', label: 'counting' });
    await scratch.png('iconqa/test/fill_in_blank/300/image.png');
    await convertDataset({ dataset: 'iconqa', input: scratch.path('iconqa/test'), output: scratch.path('iconqa/test.jsonl') });
    expect(scratch.tasks('iconqa/test.jsonl')).toEqual([
      { id: 'iconqa-200', dataset: 'IconQA', taskFamily: 'ood', images: ['test/choose_img/200/image.png', 'test/choose_img/200/choice_0.png', 'test/choose_img/200/choice_1.png'], question: 'Which shape is a circle?', choices: ['image 2', 'image 3'], answer: 'image 2', answerType: 'multiple-choice', metadata: { answer_letter: 'A', answer_index: 0, ques_type: 'choose_img', grade: 'prek', label: 'shapes', split: 'test', choice_images: ['choice_0.png', 'choice_1.png'] } },
      { id: 'iconqa-100', dataset: 'IconQA', taskFamily: 'ood', images: ['test/choose_txt/100/image.png'], question: 'What time is shown on the clock?', choices: ['3:00', '9:00'], answer: '9:00', answerType: 'multiple-choice', metadata: { answer_letter: 'B', answer_index: 1, ques_type: 'choose_txt', grade: 'grade1', label: 'read clocks', split: 'test' } },
      { id: 'iconqa-300', dataset: 'IconQA', taskFamily: 'ood', images: ['test/fill_in_blank/300/image.png'], question: 'How many dots are there?', answer: '7', answerType: 'number', metadata: { ques_type: 'fill_in_blank', grade: 'grade1', label: 'counting', split: 'test' } },
    ]);
  });
});
