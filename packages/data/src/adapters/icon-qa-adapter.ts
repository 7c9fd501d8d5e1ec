import { readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { inferAnswerType, multipleChoice } from '../answers';
import { convertRecords } from '../convert/convert-records';
import type { DatasetAdapter, TaskDraft } from '../dataset-adapter';
import { DatasetFormatError } from '../dataset-format-error';
import { imageFile } from '../images';
import { naturalSort, problemFolderRecords } from '../readers/folder-records';
import type { SourceRecord } from '../readers/source-record';

const QUESTION_TYPES = ['choose_txt', 'choose_img', 'fill_in_blank'] as const;

/** The problems of a split folder: `<type>/<id>/data.json` for each question type present. */
async function* splitRecords(root: string): AsyncGenerator<SourceRecord> {
  let types: string[];
  try {
    types = naturalSort(await readdir(root)).filter((name) => (QUESTION_TYPES as readonly string[]).includes(name));
  } catch (error) {
    throw new DatasetFormatError({ location: { file: root }, field: '(folder)', expected: 'a readable IconQA split folder', received: (error as Error).message, cause: error });
  }
  if (types.length === 0) throw new DatasetFormatError({ location: { file: root }, field: '(folder)', expected: `a split folder holding ${QUESTION_TYPES.join(', ')}`, received: 'none of them' });
  for (const type of types) yield* problemFolderRecords(join(root, type), 'data.json');
}

/**
 * IconQA (`iconqa_data/iconqa/<split>/`): `<ques_type>/<id>/data.json` (`{question, choices,
 * answer, ques_type, grade, label}`) with `image.png`; `choose_img` options are pictures
 * `choice_<n>.png`, which follow the question's image (the options read "image 2", "image 3", …).
 */
export const iconQaAdapter: DatasetAdapter = {
  name: 'IconQA',
  aliases: [],
  taskFamily: 'ood',
  input: 'the split folder `iconqa_data/iconqa/<split>/`: `<choose_txt|choose_img|fill_in_blank>/<id>/data.json` and `image.png`',
  images: 'the split folder itself (default)',
  layout: { paths: ['iconqa/<split>/'], holds: '*/*/data.json' },
  defaultImages: (input) => input,
  async *read(context) {
    const split = basename(context.input);
    yield* convertRecords(splitRecords(context.input), (fields): TaskDraft => {
      const id = String(fields.get('__key'));
      const type = fields.string('ques_type', `one of ${QUESTION_TYPES.join(', ')}`);
      const problem = join(context.images, type, id);
      const base = {
        id: `iconqa-${id}`,
        dataset: 'IconQA',
        taskFamily: 'ood',
        images: [imageFile(problem, 'image.png', `${type}/${id}/image.png`)],
        question: fields.string('question', 'the question'),
      };
      const metadata = { ...fields.pick('ques_type', 'grade', 'label'), split };
      if (type === 'fill_in_blank') {
        const answer = String(fields.scalar('answer', 'the answer'));
        return { ...base, answer, answerType: inferAnswerType(answer), metadata };
      }
      if (type !== 'choose_txt' && type !== 'choose_img') fields.fail('ques_type', `one of ${QUESTION_TYPES.join(', ')}`);
      const options = fields.stringArray('choices', 'the options', { min: 2 });
      const index = fields.integer('answer', 'the 0-based index of the right option');
      if (type === 'choose_txt') {
        const choice = multipleChoice(fields, options, index, 'answer');
        return { ...base, ...choice, metadata: { ...choice.metadata, ...metadata } };
      }
      const choice = multipleChoice(fields, options.map((_option, position) => `image ${position + 2}`), index, 'answer');
      return {
        ...base,
        images: [...base.images, ...options.map((option, position) => imageFile(problem, option, `choices[${position}]`))],
        ...choice,
        metadata: { ...choice.metadata, ...metadata, choice_images: options },
      };
    });
  },
};
