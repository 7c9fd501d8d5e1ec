import { basename, dirname, join } from 'node:path';
import { inferAnswerType } from '../answers';
import { convertRecords } from '../convert/convert-records';
import type { DatasetAdapter } from '../dataset-adapter';
import { imageAt } from '../images';
import { documentRecords } from '../readers/document-records';

/**
 * PlotQA (`<split>/qa_pairs_V2.json` or `qa_pairs_V1.json`): `{"qa_pairs": [{image_index,
 * question_string, answer, template, type, …}]}`; the plots are `<split>/png/<image_index>.png`.
 */
export const plotQaAdapter: DatasetAdapter = {
  name: 'PlotQA',
  aliases: [],
  taskFamily: 'chart',
  input: '`<split>/qa_pairs_V2.json` (or `_V1`): `{"qa_pairs": [{image_index, question_string, answer, template, type}]}`',
  images: 'the `png/` folder beside the file (default), holding `<image_index>.png`',
  layout: { paths: ['<split>/qa_pairs_V2.json', '<split>/qa_pairs_V1.json'] },
  defaultImages: (input) => join(dirname(input), 'png'),
  async *read(context) {
    const split = basename(dirname(context.input));
    yield* convertRecords(await documentRecords(context.input, { key: 'qa_pairs' }), (fields) => {
      const imageIndex = fields.integer('image_index', 'the plot number', { min: 0 });
      const answer = fields.scalar('answer', 'the answer');
      const questionId = fields.has('question_id') ? fields.integer('question_id', 'the question id') : fields.location.record;
      return {
        id: `plotqa-${split}-${questionId}`,
        dataset: 'PlotQA',
        taskFamily: 'chart',
        images: [imageAt(fields, 'image_index', context.images, `${imageIndex}.png`)],
        question: fields.string('question_string', 'the question'),
        answer,
        answerType: inferAnswerType(answer),
        metadata: { split, ...fields.pick('image_index', 'template', 'type', 'qid') },
      };
    });
  },
};
