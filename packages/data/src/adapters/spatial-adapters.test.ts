import { readdirSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { imageColumn, listColumn, Scratch, solidPng, stringColumn, writeParquet } from '../../test/dataset-files';
import { convertDataset } from '../convert/convert-dataset';

let scratch: Scratch;
beforeEach(() => {
  scratch = new Scratch();
});
afterEach(() => scratch.remove());

const hashed = (tasks: unknown[]) => (tasks as { images: string[] }[]).map((task) => ({ ...task, images: task.images.map((image) => image.replace(/[0-9a-f]{32}/, '<hash>')) }));

describe('CLEVR', () => {
  test('questions/CLEVR_val_questions.json with images/<split>/', async () => {
    const input = scratch.json('CLEVR_v1.0/questions/CLEVR_val_questions.json', {
      info: { split: 'val', license: 'Creative Commons Attribution (CC BY 4.0)', version: '1.0', date: '2/14/2017' },
      questions: [
        { image_index: 0, program: [], question_index: 0, image_filename: 'CLEVR_val_000000.png', question_family_index: 39, split: 'val', answer: 'no', question: 'Are there any other things that are the same shape as the big metallic object?' },
        { image_index: 0, program: [], question_index: 1, image_filename: 'CLEVR_val_000000.png', question_family_index: 86, split: 'val', answer: '2', question: 'How many cubes are there?' },
        { image_index: 0, program: [], question_index: 2, image_filename: 'CLEVR_val_000000.png', question_family_index: 90, split: 'val', answer: 'rubber', question: 'What material is the big cylinder?' },
      ],
    });
    await scratch.png('CLEVR_v1.0/images/val/CLEVR_val_000000.png');
    await convertDataset({ dataset: 'CLEVR', input, output: scratch.path('clevr.jsonl') });
    const common = { dataset: 'CLEVR', taskFamily: 'spatial', images: ['CLEVR_v1.0/images/val/CLEVR_val_000000.png'] };
    const metadata = (family: number) => ({ source: 'CLEVR_val_questions', split: 'val', image_index: 0, question_family_index: family });
    expect(scratch.tasks('clevr.jsonl')).toEqual([
      { id: 'clevr-val-0', ...common, question: 'Are there any other things that are the same shape as the big metallic object?', answer: 'no', answerType: 'yes-no', metadata: metadata(39) },
      { id: 'clevr-val-1', ...common, question: 'How many cubes are there?', answer: '2', answerType: 'number', metadata: metadata(86) },
      { id: 'clevr-val-2', ...common, question: 'What material is the big cylinder?', answer: 'rubber', answerType: 'text', metadata: metadata(90) },
    ]);
  });
});

describe('CLEVR-Math', () => {
  test('clevr-math-val.json with CLEVR images', async () => {
    const input = scratch.json('clevr-math/clevr-math-val.json', {
      questions: [{ image_index: 5, image_filename: 'CLEVR_val_000005.png', split: 'val', question: 'Subtract all red cubes. How many objects are left?', answer: 4, template_filename: 'subtraction.json', question_index: 12 }],
    });
    await scratch.png('CLEVR_v1.0/images/val/CLEVR_val_000005.png');
    await convertDataset({ dataset: 'clevr-math', input, images: scratch.path('CLEVR_v1.0/images'), output: scratch.path('clevr-math.jsonl') });
    expect(scratch.tasks('clevr-math.jsonl')).toEqual([
      { id: 'clevr-math-val-12', dataset: 'CLEVR-Math', taskFamily: 'spatial', images: ['CLEVR_v1.0/images/val/CLEVR_val_000005.png'], question: 'Subtract all red cubes. How many objects are left?', answer: 4, answerType: 'number', metadata: { split: 'val', template: 'subtraction', image_index: 5 } },
    ]);
  });
});

describe('A-OKVQA', () => {
  test('aokvqa_v1p0_val.json with COCO val2017/', async () => {
    const input = scratch.json('aokvqa/aokvqa_v1p0_val.json', [
      {
        split: 'val',
        image_id: 461751,
        question_id: '22jbM6gDxdaMaunuzgrsBB',
        question: "What is in the motorcyclist's mouth?",
        choices: ['toothpick', 'food', 'popsicle stick', 'cigarette'],
        correct_choice_idx: 3,
        direct_answers: ['cigarette', 'cigarette', 'cigarette', 'cigarette', 'cigarette', 'cigarette', 'cigarette', 'cigarette', 'cigarette', 'cigarette'],
        difficult_direct_answer: false,
        rationales: ['He is smoking a cigarette.'],
      },
    ]);
    await scratch.png('coco/val2017/000000461751.jpg');
    await convertDataset({ dataset: 'a-okvqa', input, images: scratch.path('coco'), output: scratch.path('aokvqa.jsonl') });
    expect(scratch.tasks('aokvqa.jsonl')).toEqual([
      {
        id: 'aokvqa-22jbM6gDxdaMaunuzgrsBB',
        dataset: 'A-OKVQA',
        taskFamily: 'other',
        images: ['coco/val2017/000000461751.jpg'],
        question: "What is in the motorcyclist's mouth?",
        choices: ['toothpick', 'food', 'popsicle stick', 'cigarette'],
        answer: 'cigarette',
        answerType: 'multiple-choice',
        metadata: { answer_letter: 'D', answer_index: 3, direct_answers: Array(10).fill('cigarette'), difficult_direct_answer: false, image_id: 461751, split: 'val', rationales: ['He is smoking a cigarette.'] },
      },
    ]);
  });
});

describe('V*Bench', () => {
  test('test_questions.jsonl (streamed): the options are read out of the prompt text', async () => {
    const input = scratch.jsonl('vstar_bench/test_questions.jsonl', [
      { image: 'direct_attributes/sa_4690.jpg', text: "What is the color of the woman's jacket?\n(A) red\n(B) black\n(C) white\n(D) blue\nAnswer with the option's letter from the given choices directly.", category: 'direct_attributes', question_id: 0, label: 'B' },
    ]);
    await scratch.png('vstar_bench/direct_attributes/sa_4690.jpg');
    await convertDataset({ dataset: 'vstar', input, output: scratch.path('vstar.jsonl') });
    expect(scratch.tasks('vstar.jsonl')).toEqual([
      { id: 'vstar-0', dataset: 'V*Bench', taskFamily: 'visual-search', images: ['vstar_bench/direct_attributes/sa_4690.jpg'], question: "What is the color of the woman's jacket?", choices: ['red', 'black', 'white', 'blue'], answer: 'black', answerType: 'multiple-choice', metadata: { answer_letter: 'B', answer_index: 1, category: 'direct_attributes' } },
    ]);
  });
});

describe('BLINK', () => {
  test('<Subtask>/val-00000-of-00001.parquet: embedded images are written out; --split picks the files', async () => {
    const png = await solidPng(4, 3);
    const columns = (idx: string) => [
      { schema: stringColumn('idx'), name: 'idx', data: [idx] },
      { schema: stringColumn('question'), name: 'question', data: ['Which point is closer to the camera?'] },
      { schema: stringColumn('sub_task'), name: 'sub_task', data: ['Relative_Depth'] },
      { schema: imageColumn('image_1'), name: 'image_1', data: [{ bytes: png, path: null }] },
      { schema: imageColumn('image_2'), name: 'image_2', data: [null] },
      { schema: listColumn('choices', [{ name: 'element', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' }]), name: 'choices', data: [['A', 'B']] },
      { schema: stringColumn('answer'), name: 'answer', data: ['(B)'] },
    ];
    await writeParquet(scratch.path('BLINK/Relative_Depth/val-00000-of-00001.parquet'), columns('val_Relative_Depth_1'));
    await writeParquet(scratch.path('BLINK/Relative_Depth/test-00000-of-00001.parquet'), columns('test_Relative_Depth_1'));
    const summary = await convertDataset({ dataset: 'BLINK', input: scratch.path('BLINK'), output: scratch.path('out/blink.jsonl') });
    expect(summary).toMatchObject({ read: 1, written: 1, images: scratch.path('out/images') });
    expect(readdirSync(scratch.path('out/images'))).toHaveLength(1);
    expect(hashed(scratch.tasks('out/blink.jsonl'))).toEqual([
      { id: 'blink-val_Relative_Depth_1', dataset: 'BLINK', taskFamily: 'spatial', images: ['images/<hash>.png'], question: 'Which point is closer to the camera?', choices: ['A', 'B'], answer: 'B', answerType: 'multiple-choice', metadata: { answer_letter: 'B', answer_index: 1, sub_task: 'Relative_Depth' } },
    ]);
  });
});

describe('SAT', () => {
  test('array/SAT Parquet rows: image_bytes list, answers and correct_answer', async () => {
    const [first, second] = [await solidPng(4, 3, [10, 20, 30]), await solidPng(4, 3, [40, 50, 60])];
    await writeParquet(scratch.path('SAT/SAT_val.parquet'), [
      { schema: listColumn('image_bytes', imageColumn('element')), name: 'image_bytes', data: [[{ bytes: first, path: null }, { bytes: second, path: null }]] },
      { schema: stringColumn('question'), name: 'question', data: ['Did the camera move left or right between the frames?'] },
      { schema: listColumn('answers', [{ name: 'element', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' }]), name: 'answers', data: [['left', 'right']] },
      { schema: stringColumn('correct_answer'), name: 'correct_answer', data: ['right'] },
      { schema: stringColumn('question_type'), name: 'question_type', data: ['ego_movement'] },
    ]);
    await convertDataset({ dataset: 'SAT', input: scratch.path('SAT/SAT_val.parquet'), output: scratch.path('sat.jsonl') });
    expect(hashed(scratch.tasks('sat.jsonl'))).toEqual([
      { id: 'sat-SAT_val-1', dataset: 'SAT', taskFamily: 'spatial', images: ['images/<hash>.png', 'images/<hash>.png'], question: 'Did the camera move left or right between the frames?', choices: ['left', 'right'], answer: 'right', answerType: 'multiple-choice', metadata: { answer_letter: 'B', answer_index: 1, question_type: 'ego_movement' } },
    ]);
    expect(readdirSync(scratch.path('images'))).toHaveLength(2);
  });
});

describe('ScreenSpot', () => {
  test('screenspot_web.json: bbox [x, y, w, h] becomes the box [x1, y1, x2, y2] a click must hit', async () => {
    const input = scratch.json('ScreenSpot/screenspot_web.json', [{ img_filename: 'web_3b0ad239.png', bbox: [410, 12, 42, 28], instruction: 'search button', data_type: 'icon', data_source: 'shop' }]);
    await scratch.png('ScreenSpot/screenspot_imgs/web_3b0ad239.png');
    await convertDataset({ dataset: 'ScreenSpot', input, output: scratch.path('ScreenSpot/web.jsonl') });
    expect(scratch.tasks('ScreenSpot/web.jsonl')).toEqual([
      { id: 'screenspot-web-1', dataset: 'ScreenSpot', taskFamily: 'grounding', images: ['screenspot_imgs/web_3b0ad239.png'], question: 'search button', answer: [410, 12, 452, 40], answerType: 'point', metadata: { platform: 'web', bbox_xywh: [410, 12, 42, 28], data_type: 'icon', data_source: 'shop' } },
    ]);
  });
});
