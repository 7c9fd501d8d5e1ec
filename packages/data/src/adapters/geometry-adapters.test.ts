import { copyFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { decodeImage } from '@saccade/image';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { Scratch } from '../../test/dataset-files';
import { convertDataset } from '../convert/convert-dataset';

let scratch: Scratch;
beforeEach(() => {
  scratch = new Scratch();
});
afterEach(() => scratch.remove());

describe('Geometry3K', () => {
  test('one folder per problem: data.json and img_diagram.png', async () => {
    scratch.json('geometry3k/test/2401/data.json', {
      id: 2401,
      problem_text: 'Find x. Round to the nearest tenth.',
      choices: ['5.8', '6.5', '14.2', '44.3'],
      answer: 'C',
      diagram_logic_form: ['Equals(LengthOf(Line(A, B)), 8)'],
      problem_type_graph: ['Triangle'],
      problem_type_goal: ['Length'],
    });
    await scratch.png('geometry3k/test/2401/img_diagram.png');
    scratch.json('geometry3k/test/2402/data.json', { id: 2402, problem_text: 'Find m \\angle 2.', choices: ['30', '60', '90', '120'], answer: 'B', problem_type_graph: ['Line'], problem_type_goal: ['Angle'] });
    await scratch.png('geometry3k/test/2402/img_diagram.png');
    await convertDataset({ dataset: 'Geometry3K', input: scratch.path('geometry3k/test'), output: scratch.path('geo3k.jsonl') });
    expect(scratch.tasks('geo3k.jsonl')).toEqual([
      {
        id: 'geometry3k-2401',
        dataset: 'Geometry3K',
        taskFamily: 'geometry',
        images: ['geometry3k/test/2401/img_diagram.png'],
        question: 'Find x. Round to the nearest tenth.',
        choices: ['5.8', '6.5', '14.2', '44.3'],
        answer: '14.2',
        answerType: 'multiple-choice',
        metadata: { answer_letter: 'C', answer_index: 2, split: 'test', problem_type_graph: ['Triangle'], problem_type_goal: ['Length'] },
      },
      {
        id: 'geometry3k-2402',
        dataset: 'Geometry3K',
        taskFamily: 'geometry',
        images: ['geometry3k/test/2402/img_diagram.png'],
        question: 'Find m \\angle 2.',
        choices: ['30', '60', '90', '120'],
        answer: '60',
        answerType: 'multiple-choice',
        metadata: { answer_letter: 'B', answer_index: 1, split: 'test', problem_type_graph: ['Line'], problem_type_goal: ['Angle'] },
      },
    ]);
  });
});

describe('GeoQA', () => {
  test('GeoQA3/json/<n>.json with GeoQA3/image/<n>.png', async () => {
    scratch.json('GeoQA3/json/0.json', { id: 0, subject: '如图，AB∥CD，∠1=50°，则∠2的度数是()', choices: ['40°', '50°', '130°', '150°'], label: 2, formal_point: ['A', 'B', 'C', 'D'], comment: '' });
    await scratch.png('GeoQA3/image/0.png');
    await convertDataset({ dataset: 'geoqa', input: scratch.path('GeoQA3/json'), output: scratch.path('geoqa.jsonl') });
    expect(scratch.tasks('geoqa.jsonl')).toEqual([
      {
        id: 'geoqa-0',
        dataset: 'GeoQA',
        taskFamily: 'geometry',
        images: ['GeoQA3/image/0.png'],
        question: '如图，AB∥CD，∠1=50°，则∠2的度数是()',
        choices: ['40°', '50°', '130°', '150°'],
        answer: '130°',
        answerType: 'multiple-choice',
        metadata: { answer_letter: 'C', answer_index: 2, formal_point: ['A', 'B', 'C', 'D'], comment: '' },
      },
    ]);
  });
});

describe('UniGeo', () => {
  test.each([2, 3, 4])('calculation_test.pk (pickle protocol %i) with NumPy diagrams: diagrams become PNG files', async (protocol) => {
    const input = scratch.path('UniGeo/calculation_test.pk');
    scratch.write('UniGeo/calculation_test.pk', new Uint8Array());
    copyFileSync(join(import.meta.dirname, '../readers/__fixtures__', `unigeo-calculation-p${protocol}.pk`), input);
    const summary = await convertDataset({ dataset: 'UniGeo', input, output: scratch.path('out/unigeo.jsonl') });
    expect(summary).toMatchObject({ read: 2, written: 2, images: scratch.path('out/images') });
    const tasks = scratch.tasks('out/unigeo.jsonl') as { images: string[] }[];
    const files = readdirSync(scratch.path('out/images')).sort();
    expect(files).toHaveLength(2);
    expect(tasks.map((task) => ({ ...task, images: task.images.map((image) => image.replace(/[0-9a-f]{32}/, '<hash>')) }))).toEqual([
      {
        id: 'unigeo-calculation_test-0',
        dataset: 'UniGeo',
        taskFamily: 'geometry',
        images: ['images/<hash>.png'],
        question: 'As shown in the figure, AB is parallel to CD. Find angle 2.',
        choices: ['40°', '50°', '60°', '70°'],
        answer: '50°',
        answerType: 'multiple-choice',
        metadata: { answer_letter: 'B', answer_index: 1, source: 'calculation_test' },
      },
      {
        id: 'unigeo-calculation_test-1',
        dataset: 'UniGeo',
        taskFamily: 'geometry',
        images: ['images/<hash>.png'],
        question: 'Find the radius of circle O.',
        choices: ['2', '3', '4', '5'],
        answer: '5',
        answerType: 'multiple-choice',
        metadata: { answer_letter: 'D', answer_index: 3, source: 'calculation_test' },
      },
    ]);
    // The diagrams keep their pixels: 6 × 4 red, and 5 × 3 grey (one channel, written as RGB).
    const red = await decodeImage(scratch.path('out', tasks[0]!.images[0]!));
    expect([red.width, red.height, ...red.data.subarray(0, 3)]).toEqual([6, 4, 255, 0, 0]);
    const grey = await decodeImage(scratch.path('out', tasks[1]!.images[0]!));
    expect([grey.width, grey.height, ...grey.data.subarray(0, 3)]).toEqual([5, 3, 128, 128, 128]);
  });
});
