import { basename, dirname, join } from 'node:path';
import { inferAnswerType } from '../answers';
import { convertRecords } from '../convert/convert-records';
import type { DatasetAdapter } from '../dataset-adapter';
import { imageAt } from '../images';
import { documentRecords } from '../readers/document-records';

/**
 * CLEVR (`CLEVR_v1.0/questions/CLEVR_<split>_questions.json`): `{info, questions: [{image_index,
 * split, image_filename, question_index, question, answer, question_family_index, program}]}`;
 * the scenes are `CLEVR_v1.0/images/<split>/<image_filename>`.
 */
export const clevrAdapter: DatasetAdapter = {
  name: 'CLEVR',
  aliases: [],
  taskFamily: 'spatial',
  input: '`CLEVR_v1.0/questions/CLEVR_<split>_questions.json`: `{"questions": [{split, image_filename, question_index, question, answer}]}`',
  images: 'the `images/` folder of `CLEVR_v1.0` (default: `../images` from the file), holding `<split>/<image_filename>`',
  layout: { paths: ['questions/CLEVR_<split>_questions.json'] },
  defaultImages: (input) => join(dirname(dirname(input)), 'images'),
  async *read(context) {
    const source = basename(context.input, '.json');
    yield* convertRecords(await documentRecords(context.input, { key: 'questions' }), (fields) => {
      const split = fields.string('split', 'the split');
      const file = fields.string('image_filename', 'the scene file name');
      const answer = fields.scalar('answer', 'the answer');
      const index = fields.has('question_index') ? fields.integer('question_index', 'the question index') : fields.location.record;
      return {
        id: `clevr-${split}-${index}`,
        dataset: 'CLEVR',
        taskFamily: 'spatial',
        images: [imageAt(fields, 'image_filename', context.images, join(split, file))],
        question: fields.string('question', 'the question'),
        answer,
        answerType: inferAnswerType(answer),
        metadata: { source, ...fields.pick('split', 'image_index', 'question_family_index') },
      };
    });
  },
};
