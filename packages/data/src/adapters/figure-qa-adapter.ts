import { basename, dirname, join } from 'node:path';
import { convertRecords } from '../convert/convert-records';
import type { DatasetAdapter } from '../dataset-adapter';
import { imageAt } from '../images';
import { documentRecords } from '../readers/document-records';

/**
 * FigureQA (`<split>/qa_pairs.json`): `{"qa_pairs": [{image_index, question_id, question_string,
 * answer (1 yes, 0 no), color1_name, color2_name, …}]}`; the figures are `<split>/png/<image_index>.png`.
 */
export const figureQaAdapter: DatasetAdapter = {
  name: 'FigureQA',
  aliases: [],
  taskFamily: 'chart',
  input: '`<split>/qa_pairs.json`: `{"qa_pairs": [{image_index, question_id, question_string, answer: 1 | 0, color1_name, color2_name}]}`',
  images: 'the `png/` folder beside the file (default), holding `<image_index>.png`',
  layout: { paths: ['<split>/qa_pairs.json'] },
  defaultImages: (input) => join(dirname(input), 'png'),
  async *read(context) {
    const split = basename(dirname(context.input));
    yield* convertRecords(await documentRecords(context.input, { key: 'qa_pairs' }), (fields) => {
      const imageIndex = fields.integer('image_index', 'the figure number', { min: 0 });
      const label = fields.integer('answer', 'the answer: 1 for yes, 0 for no', { min: 0, max: 1 });
      const questionId = fields.has('question_id') ? fields.integer('question_id', 'the question id') : fields.location.record;
      return {
        id: `figureqa-${split}-${questionId}`,
        dataset: 'FigureQA',
        taskFamily: 'chart',
        images: [imageAt(fields, 'image_index', context.images, `${imageIndex}.png`)],
        question: fields.string('question_string', 'the question'),
        answer: label === 1 ? 'yes' : 'no',
        answerType: 'yes-no',
        metadata: { split, ...fields.pick('image_index', 'question_id', 'color1_name', 'color2_name') },
      };
    });
  },
};
