// Datasets as they are downloaded: `--input` may name the download's folder (or any folder on the
// way to the file), `--images` may be one level off the layout when that is unambiguous, and a
// folder that gives no records is an error saying where it looked, never a success.
import { existsSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { Scratch } from '../../test/dataset-files';
import type { DatasetAdapter } from '../dataset-adapter';
import { convertDataset } from './convert-dataset';

let scratch: Scratch;
beforeEach(() => {
  scratch = new Scratch();
});
afterEach(() => scratch.remove());

/** The ScienceQA repository as cloned: data/scienceqa/problems.json and images/<split>/<id>/. */
async function scienceQa() {
  scratch.json('ScienceQA/data/scienceqa/problems.json', {
    '7': { question: 'Which animal is a mammal?', choices: ['frog', 'dog'], answer: 1, hint: '', image: 'image.png', split: 'test', subject: 'natural science' },
    '8': { question: 'Which is a solid?', choices: ['milk', 'rock'], answer: 1, hint: '', image: null, split: 'train', subject: 'natural science' },
  });
  scratch.json('ScienceQA/data/scienceqa/pid_splits.json', { test: ['7'], train: ['8'] });
  await scratch.png('ScienceQA/data/scienceqa/images/test/7/image.png');
}
const scienceQaTask = {
  id: 'scienceqa-7',
  dataset: 'ScienceQA',
  taskFamily: 'science',
  images: ['ScienceQA/data/scienceqa/images/test/7/image.png'],
  question: 'Which animal is a mammal?',
  choices: ['frog', 'dog'],
  answer: 'dog',
  answerType: 'multiple-choice',
  metadata: { answer_letter: 'B', answer_index: 1, split: 'test', subject: 'natural science' },
};

describe('--input names the folder as downloaded', () => {
  test('ScienceQA: the repository folder, data/ or data/scienceqa/ all read problems.json, with the images beside it', async () => {
    await scienceQa();
    for (const folder of ['ScienceQA', 'ScienceQA/data', 'ScienceQA/data/scienceqa']) {
      const summary = await convertDataset({ dataset: 'scienceqa', input: scratch.path(folder), split: 'test', output: scratch.path('sqa.jsonl') });
      expect(summary).toMatchObject({ input: scratch.path('ScienceQA/data/scienceqa/problems.json'), images: scratch.path('ScienceQA/data/scienceqa/images'), read: 2, written: 1, leftOut: 1 });
      expect(scratch.tasks('sqa.jsonl')).toEqual([scienceQaTask]);
    }
  });

  test('AI2D: the ai2d folder holding questions/ and images/ reads questions/', async () => {
    scratch.json('ai2d/questions/4.png.json', { imageName: '4.png', questions: { 'What eats grass?': { abcLabel: false, answerTexts: ['cow', 'lion'], correctAnswer: 0, questionId: '4.png-0' } } });
    await scratch.png('ai2d/images/4.png');
    scratch.write('ai2d/ai2d_test_ids.csv', '4\n');
    scratch.json('ai2d/categories.json', { '4.png': 'foodChainsWebs' });
    const summary = await convertDataset({ dataset: 'ai2d', input: scratch.path('ai2d'), output: scratch.path('ai2d.jsonl') });
    expect(summary).toMatchObject({ input: scratch.path('ai2d/questions'), images: scratch.path('ai2d/images'), read: 1, written: 1 });
    expect(scratch.tasks('ai2d.jsonl')).toEqual([
      { id: 'ai2d-4.png-0', dataset: 'AI2D', taskFamily: 'science', images: ['ai2d/images/4.png'], question: 'What eats grass?', choices: ['cow', 'lion'], answer: 'cow', answerType: 'multiple-choice', metadata: { answer_letter: 'A', answer_index: 0, abcLabel: false } },
    ]);
  });

  test('CLEVR: CLEVR_v1.0 with --split picks questions/CLEVR_<split>_questions.json; without it, several splits are named', async () => {
    clevr();
    await scratch.png('CLEVR_v1.0/images/val/CLEVR_val_000000.png');
    const summary = await convertDataset({ dataset: 'clevr', input: scratch.path('CLEVR_v1.0'), split: 'val', output: scratch.path('clevr.jsonl') });
    expect(summary).toMatchObject({ input: scratch.path('CLEVR_v1.0/questions/CLEVR_val_questions.json'), read: 1, written: 1 });
    await expect(convertDataset({ dataset: 'clevr', input: scratch.path('CLEVR_v1.0'), output: scratch.path('clevr.jsonl') })).rejects.toThrow(
      `${scratch.path('CLEVR_v1.0')}: field "(folder)": expected one CLEVR input in the folder (--split picks one split), received several: questions/CLEVR_train_questions.json, questions/CLEVR_val_questions.json; give the one to convert as --input`,
    );
  });

  test('Geometry3K and IconQA: the download folder with --split finds the split folder', async () => {
    scratch.json('geometry3k/test/2401/data.json', { id: 2401, problem_text: 'Find x.', choices: ['3', '4', '5', '6'], answer: 'C' });
    await scratch.png('geometry3k/test/2401/img_diagram.png');
    scratch.json('geometry3k/train/0/data.json', { id: 0, problem_text: 'Find y.', choices: ['1', '2'], answer: 'A' });
    const geometry = await convertDataset({ dataset: 'geometry3k', input: scratch.path('geometry3k'), split: 'test', output: scratch.path('g.jsonl') });
    expect(geometry).toMatchObject({ input: scratch.path('geometry3k/test'), read: 1, written: 1 });
    scratch.json('iconqa_data/iconqa/val/fill_in_blank/9/data.json', { question: 'How many dots are there?', choices: [], answer: '7', ques_type: 'fill_in_blank' });
    await scratch.png('iconqa_data/iconqa/val/fill_in_blank/9/image.png');
    const iconqa = await convertDataset({ dataset: 'iconqa', input: scratch.path('iconqa_data'), split: 'val', output: scratch.path('i.jsonl') });
    expect(iconqa).toMatchObject({ input: scratch.path('iconqa_data/iconqa/val'), read: 1, written: 1 });
  });

  test("ChartQA: a split folder holding both _human and _augmented is ambiguous, and the message lists them", async () => {
    scratch.json('ChartQA Dataset/test/test_human.json', [{ imgname: 'a.png', query: 'Max?', label: '3' }]);
    scratch.json('ChartQA Dataset/test/test_augmented.json', [{ imgname: 'a.png', query: 'Min?', label: '1' }]);
    await expect(convertDataset({ dataset: 'chartqa', input: scratch.path('ChartQA Dataset', 'test'), output: scratch.path('c.jsonl') })).rejects.toThrow(
      'expected one ChartQA input in the folder (--split picks one split), received several: test_augmented.json, test_human.json; give the one to convert as --input',
    );
  });

  test('a folder without the layout says where it looked and what it holds; nothing is written', async () => {
    scratch.json('downloads/notes.json', {});
    scratch.write('downloads/readme.txt', 'hello');
    await expect(convertDataset({ dataset: 'scienceqa', input: scratch.path('downloads'), output: scratch.path('out.jsonl') })).rejects.toThrow(
      `${scratch.path('downloads')}: field "(folder)": expected ScienceQA's \`data/scienceqa/problems.json\`: \`{"<id>": {question, choices, answer, hint, image, split, subject, …}}\` (use \`--split\`), or a folder holding it as published (looked for data/scienceqa/problems.json, scienceqa/problems.json, problems.json), received a folder holding notes.json, readme.txt`,
    );
    expect(existsSync(scratch.path('out.jsonl'))).toBe(false);
  });

  test('a file-only dataset (vlmgym) given a folder says it wants a file', async () => {
    scratch.json('vista/train.json', []);
    await expect(convertDataset({ dataset: 'vlmgym', input: scratch.path('vista'), output: scratch.path('out.jsonl') })).rejects.toThrow(
      `${scratch.path('vista')}: field "(file)": expected a file: vlmgym's a JSON array (or JSONL) of \`{id, dataset, image_path, question, answer, choices | null, task, metadata}\`, received a folder holding train.json`,
    );
  });

  test('a folder that gives no records is an error, not a success', async () => {
    const adapter: DatasetAdapter = { name: 'Folders', aliases: [], taskFamily: 'other', input: 'a folder of `*.task` files', images: 'the folder', defaultImages: (input) => input, read: async function* () {} };
    scratch.write('tasks/nested/1.task', 'one');
    await expect(convertDataset({ dataset: adapter, input: scratch.path('tasks'), output: scratch.path('folders.jsonl') })).rejects.toThrow(
      `${scratch.path('tasks')}: field "(folder)": expected Folders's a folder of \`*.task\` files, received a folder holding nested/, which gave no records`,
    );
    expect(existsSync(scratch.path('folders.jsonl'))).toBe(false);
  });
});

function clevr() {
  const question = (split: string) => ({ image_index: 0, question_index: 0, image_filename: `CLEVR_${split}_000000.png`, question_family_index: 86, split, answer: '2', question: 'How many cubes are there?' });
  scratch.json('CLEVR_v1.0/questions/CLEVR_val_questions.json', { info: { split: 'val' }, questions: [question('val')] });
  scratch.json('CLEVR_v1.0/questions/CLEVR_train_questions.json', { info: { split: 'train' }, questions: [question('train')] });
}

describe('--images one level off the layout', () => {
  const task = { id: 'clevr-val-0', dataset: 'CLEVR', taskFamily: 'spatial', images: ['CLEVR_v1.0/images/val/CLEVR_val_000000.png'], question: 'How many cubes are there?', answer: '2', answerType: 'number', metadata: { source: 'CLEVR_val_questions', split: 'val', image_index: 0, question_family_index: 86 } };

  test('CLEVR: images/val (the split folder) and CLEVR_v1.0 (the folder above) both find images/val/<file>', async () => {
    clevr();
    await scratch.png('CLEVR_v1.0/images/val/CLEVR_val_000000.png');
    const input = scratch.path('CLEVR_v1.0/questions/CLEVR_val_questions.json');
    for (const images of ['CLEVR_v1.0/images/val', 'CLEVR_v1.0', 'CLEVR_v1.0/images']) {
      await convertDataset({ dataset: 'clevr', input, images: scratch.path(images), output: scratch.path('clevr.jsonl') });
      expect(scratch.tasks('clevr.jsonl')).toEqual([task]);
    }
  });

  test('two subfolders that would both hold the image are ambiguous: the image is reported missing', async () => {
    clevr();
    await scratch.png('CLEVR_v1.0/images/val/CLEVR_val_000000.png');
    await scratch.png('CLEVR_v1.0/copy/val/CLEVR_val_000000.png');
    await expect(convertDataset({ dataset: 'clevr', input: scratch.path('CLEVR_v1.0/questions/CLEVR_val_questions.json'), images: scratch.path('CLEVR_v1.0'), output: scratch.path('clevr.jsonl') })).rejects.toThrow(
      `field "image_filename": expected an image file that exists, received "val/CLEVR_val_000000.png" (not found at ${scratch.path('CLEVR_v1.0/val/CLEVR_val_000000.png')})`,
    );
  });
});
