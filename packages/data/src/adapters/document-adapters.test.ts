import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { Scratch } from '../../test/dataset-files';
import { convertDataset } from '../convert/convert-dataset';

let scratch: Scratch;
beforeEach(() => {
  scratch = new Scratch();
});
afterEach(() => scratch.remove());

describe('MapQA', () => {
  test('questions/<split>-QA.json with images/: lists, numbers, yes/no and text', async () => {
    const input = scratch.json('MapQA_U/questions/test-QA.json', [
      { question_id: 1001, map_id: 'map_17.png', question: 'Which states have the highest value in the South?', answer: ['Texas', 'Florida'], question_type: 'retrieval' },
      { question_id: 1002, map_id: 'map_17.png', question: 'Does Ohio have a value of 10-20?', answer: 'Yes', question_type: 'retrieval' },
      { question_id: 1003, map_id: 'map_17.png', question: 'How many colors are used?', answer: 4, question_type: 'style' },
      { question_id: 1004, map_id: 'map_17.png', question: 'What is the value of Iowa?', answer: '10-20', question_type: 'retrieval' },
    ]);
    await scratch.png('MapQA_U/images/map_17.png');
    await convertDataset({ dataset: 'MapQA', input, output: scratch.path('MapQA_U/tasks.jsonl') });
    const common = { dataset: 'MapQA', taskFamily: 'geospatial', images: ['images/map_17.png'] };
    expect(scratch.tasks('MapQA_U/tasks.jsonl')).toEqual([
      { id: 'mapqa-1001', ...common, question: 'Which states have the highest value in the South?', answer: ['Texas', 'Florida'], answerType: 'list', metadata: { source: 'test-QA', map_id: 'map_17.png', question_type: 'retrieval' } },
      { id: 'mapqa-1002', ...common, question: 'Does Ohio have a value of 10-20?', answer: 'Yes', answerType: 'yes-no', metadata: { source: 'test-QA', map_id: 'map_17.png', question_type: 'retrieval' } },
      { id: 'mapqa-1003', ...common, question: 'How many colors are used?', answer: 4, answerType: 'number', metadata: { source: 'test-QA', map_id: 'map_17.png', question_type: 'style' } },
      { id: 'mapqa-1004', ...common, question: 'What is the value of Iowa?', answer: '10-20', answerType: 'text', metadata: { source: 'test-QA', map_id: 'map_17.png', question_type: 'retrieval' } },
    ]);
  });
});

describe('DocVQA', () => {
  test('val_v1.0.json: {data: […]} with documents/ beside it; all answers kept for ANLS', async () => {
    const input = scratch.json('val/val_v1.0.json', {
      dataset_name: 'docvqa',
      dataset_split: 'val',
      dataset_version: '1.0',
      data: [
        {
          questionId: 49153,
          question: 'What is the ‘actual’ value per 1000, during the year 1975?',
          question_types: ['figure/diagram'],
          image: 'documents/pybv0228_81.png',
          docId: 14465,
          ucsf_document_id: 'pybv0228',
          ucsf_document_page_no: '81',
          answers: ['0.28'],
          data_split: 'val',
        },
      ],
    });
    await scratch.png('val/documents/pybv0228_81.png');
    await convertDataset({ dataset: 'docvqa', input, output: scratch.path('docvqa.jsonl') });
    expect(scratch.tasks('docvqa.jsonl')).toEqual([
      {
        id: 'docvqa-49153',
        dataset: 'DocVQA',
        taskFamily: 'document',
        images: ['val/documents/pybv0228_81.png'],
        question: 'What is the ‘actual’ value per 1000, during the year 1975?',
        answer: ['0.28'],
        answerType: 'text',
        metadata: { docId: 14465, question_types: ['figure/diagram'], ucsf_document_id: 'pybv0228', ucsf_document_page_no: '81', data_split: 'val' },
      },
    ]);
  });
});

describe('InfographicVQA', () => {
  test('the annotations with image_local_name; --images names the image folder', async () => {
    const input = scratch.json('infographicsVQA_val_v1.0_withQT.json', {
      dataset_name: 'infographicVQA',
      dataset_version: '1.0',
      data: [
        { questionId: 65718, question: 'What percentage of Americans are online?', image_local_name: '37313.jpeg', image_url: 'https://example.invalid/37313.jpeg', ocr_output_file: '37313.json', answers: ['90%', '90'], data_split: 'val', answer_type: ['single span'], evidence: ['text'], 'operation/reasoning': [] },
      ],
    });
    await scratch.png('infographicsvqa_images/37313.jpeg');
    await expect(convertDataset({ dataset: 'InfoVQA', input, output: scratch.path('info.jsonl') })).rejects.toThrow('Invalid argument images: expected the images folder for InfographicVQA: required: the folder holding the `image_local_name` files');
    await convertDataset({ dataset: 'InfoVQA', input, images: scratch.path('infographicsvqa_images'), output: scratch.path('info.jsonl') });
    expect(scratch.tasks('info.jsonl')).toEqual([
      {
        id: 'infographicvqa-65718',
        dataset: 'InfographicVQA',
        taskFamily: 'document',
        images: ['infographicsvqa_images/37313.jpeg'],
        question: 'What percentage of Americans are online?',
        answer: ['90%', '90'],
        answerType: 'text',
        metadata: { answer_type: ['single span'], evidence: ['text'], 'operation/reasoning': [], data_split: 'val' },
      },
    ]);
  });
});
