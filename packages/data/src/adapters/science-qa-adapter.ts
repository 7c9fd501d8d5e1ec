import { dirname, join } from 'node:path';
import { multipleChoice } from '../answers';
import { convertRecords } from '../convert/convert-records';
import type { DatasetAdapter } from '../dataset-adapter';
import { imageFile } from '../images';
import { documentRecords } from '../readers/document-records';

/**
 * ScienceQA (`data/scienceqa/problems.json`): an object keyed by problem id, each
 * `{question, choices, answer (0-based index), hint, image ("image.png" or null), split, subject,
 * topic, category, skill, grade, …}`; images are `images/<split>/<id>/<image>`. All splits share
 * the file: `--split` keeps one (the others are counted as left out). Questions without an image
 * stay, with no image; the hint is the question's context.
 */
export const scienceQaAdapter: DatasetAdapter = {
  name: 'ScienceQA',
  aliases: [],
  taskFamily: 'science',
  input: '`data/scienceqa/problems.json`: `{"<id>": {question, choices, answer, hint, image, split, subject, …}}` (use `--split`)',
  images: 'the `images/` folder beside the file (default), holding `<split>/<id>/image.png`',
  layout: { paths: ['data/scienceqa/problems.json'] },
  defaultImages: (input) => join(dirname(input), 'images'),
  async *read(context) {
    yield* convertRecords(await documentRecords(context.input, { keyed: true }), (fields) => {
      const id = String(fields.get('__key'));
      const split = fields.string('split', 'the split');
      if (context.split !== undefined && split !== context.split) return { filtered: `split ${split}` };
      const choice = multipleChoice(fields, fields.stringArray('choices', 'the options', { min: 2 }), fields.integer('answer', 'the 0-based index of the right option'), 'answer');
      const image = fields.optionalString('image', 'the image file name');
      const hint = fields.optionalString('hint', 'the context') ?? '';
      const question = fields.string('question', 'the question');
      return {
        id: `scienceqa-${id}`,
        dataset: 'ScienceQA',
        taskFamily: 'science',
        images: image === undefined || image === '' ? [] : [imageFile(join(context.images, split, id), image, fields.path('image'))],
        question: hint.trim() === '' ? question : `${question}\nContext: ${hint.trim()}`,
        ...choice,
        metadata: { ...choice.metadata, ...fields.pick('split', 'subject', 'topic', 'category', 'skill', 'grade', 'task') },
      };
    });
  },
};
