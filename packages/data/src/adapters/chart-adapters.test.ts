import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { Scratch } from '../../test/dataset-files';
import { convertDataset } from '../convert/convert-dataset';

let scratch: Scratch;
beforeEach(() => {
  scratch = new Scratch();
});
afterEach(() => scratch.remove());

describe('ChartQA', () => {
  test('test_human.json with png/ converts to number, yes-no and text tasks', async () => {
    const input = scratch.json('ChartQA Dataset/test/test_human.json', [
      { imgname: '41699051005347.png', query: 'What is the highest value in the chart?', label: '45' },
      { imgname: '41699051005347.png', query: 'Is the line increasing?', label: 'Yes' },
      { imgname: 'two_col_1.png', query: 'Which country has the lowest value?', label: 'Chile' },
    ]);
    await scratch.png('ChartQA Dataset/test/png/41699051005347.png');
    await scratch.png('ChartQA Dataset/test/png/two_col_1.png');
    const summary = await convertDataset({ dataset: 'chartqa', input, output: scratch.path('out/chartqa.jsonl') });
    expect(summary).toMatchObject({ dataset: 'ChartQA', read: 3, written: 3, skipped: 0, leftOut: 0 });
    expect(scratch.tasks('out/chartqa.jsonl')).toEqual([
      { id: 'chartqa-test_human-1', dataset: 'ChartQA', taskFamily: 'chart', images: ['../ChartQA Dataset/test/png/41699051005347.png'], question: 'What is the highest value in the chart?', answer: '45', answerType: 'number', metadata: { source: 'test_human', imgname: '41699051005347.png' } },
      { id: 'chartqa-test_human-2', dataset: 'ChartQA', taskFamily: 'chart', images: ['../ChartQA Dataset/test/png/41699051005347.png'], question: 'Is the line increasing?', answer: 'Yes', answerType: 'yes-no', metadata: { source: 'test_human', imgname: '41699051005347.png' } },
      { id: 'chartqa-test_human-3', dataset: 'ChartQA', taskFamily: 'chart', images: ['../ChartQA Dataset/test/png/two_col_1.png'], question: 'Which country has the lowest value?', answer: 'Chile', answerType: 'text', metadata: { source: 'test_human', imgname: 'two_col_1.png' } },
    ]);
  });
});

describe('PlotQA', () => {
  test('qa_pairs_V2.json with png/<image_index>.png', async () => {
    const input = scratch.json('test/qa_pairs_V2.json', {
      qa_pairs: [
        { image_index: 0, question_string: 'What is the maximum value of the bar?', answer: 6.2, answer_bbox: {}, template: 'data_retrieval', type: 'open', question_id: 0, qid: 'T1' },
        { image_index: 1, question_string: 'Does the line cross 100?', answer: 'Yes', template: 'structural', type: 'closed', question_id: 1, qid: 'T2' },
      ],
    });
    await scratch.png('test/png/0.png');
    await scratch.png('test/png/1.png');
    await convertDataset({ dataset: 'PlotQA', input, output: scratch.path('plotqa.jsonl') });
    expect(scratch.tasks('plotqa.jsonl')).toEqual([
      { id: 'plotqa-test-0', dataset: 'PlotQA', taskFamily: 'chart', images: ['test/png/0.png'], question: 'What is the maximum value of the bar?', answer: 6.2, answerType: 'number', metadata: { split: 'test', image_index: 0, template: 'data_retrieval', type: 'open', qid: 'T1' } },
      { id: 'plotqa-test-1', dataset: 'PlotQA', taskFamily: 'chart', images: ['test/png/1.png'], question: 'Does the line cross 100?', answer: 'Yes', answerType: 'yes-no', metadata: { split: 'test', image_index: 1, template: 'structural', type: 'closed', qid: 'T2' } },
    ]);
  });
});

describe('FigureQA', () => {
  test('qa_pairs.json: answers 1 and 0 become yes and no', async () => {
    const input = scratch.json('validation1/qa_pairs.json', {
      qa_pairs: [
        { image_index: 3, question_id: 10, question_string: 'Is Medium Blue the minimum?', answer: 1, color1_name: 'Medium Blue', color1_id: 2, color2_name: '--None--', color2_id: -1 },
        { image_index: 3, question_id: 11, question_string: 'Is Olive greater than Teal?', answer: 0, color1_name: 'Olive', color1_id: 5, color2_name: 'Teal', color2_id: 7 },
      ],
    });
    await scratch.png('validation1/png/3.png');
    await convertDataset({ dataset: 'figureqa', input, output: scratch.path('validation1/tasks.jsonl') });
    expect(scratch.tasks('validation1/tasks.jsonl')).toEqual([
      { id: 'figureqa-validation1-10', dataset: 'FigureQA', taskFamily: 'chart', images: ['png/3.png'], question: 'Is Medium Blue the minimum?', answer: 'yes', answerType: 'yes-no', metadata: { split: 'validation1', image_index: 3, question_id: 10, color1_name: 'Medium Blue', color2_name: '--None--' } },
      { id: 'figureqa-validation1-11', dataset: 'FigureQA', taskFamily: 'chart', images: ['png/3.png'], question: 'Is Olive greater than Teal?', answer: 'no', answerType: 'yes-no', metadata: { split: 'validation1', image_index: 3, question_id: 11, color1_name: 'Olive', color2_name: 'Teal' } },
    ]);
  });
});
