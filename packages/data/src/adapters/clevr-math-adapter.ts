import { basename } from 'node:path';
import { convertRecords } from '../convert/convert-records';
import type { DatasetAdapter } from '../dataset-adapter';
import { imageAt } from '../images';
import { documentRecords } from '../readers/document-records';

/**
 * CLEVR-Math (`clevr-math-<split>.json` from `clevr-math.zip` or `clevr-math-multihop.zip`):
 * `{"questions": [{image_filename, split, question, answer, template_filename, …}]}`, CLEVR's own
 * question format; the scenes are CLEVR's, so `--images` names the `CLEVR_v1.0/images` folder
 * (or the extracted test images), holding `<split>/<image_filename>`.
 */
export const clevrMathAdapter: DatasetAdapter = {
  name: 'CLEVR-Math',
  aliases: ['clevrmath'],
  taskFamily: 'spatial',
  input: '`clevr-math-<split>.json`: `{"questions": [{image_filename, split, question, answer, template_filename}]}`',
  images: 'required: the CLEVR images folder holding `<split>/<image_filename>` (`CLEVR_v1.0/images`)',
  layout: { paths: ['clevr-math-<split>.json'] },
  defaultImages: () => undefined,
  async *read(context) {
    const source = basename(context.input, '.json');
    yield* convertRecords(await documentRecords(context.input, { key: 'questions' }), (fields) => {
      const split = fields.string('split', 'the split');
      const file = fields.string('image_filename', 'the scene file name');
      const answer = fields.integer('answer', 'the answer, a whole number');
      const template = fields.optionalString('template_filename', 'the question template');
      const index = fields.has('question_index') ? fields.integer('question_index', 'the question index') : fields.location.record;
      return {
        id: `clevr-math-${source.replace(/^clevr-math-/, '')}-${index}`,
        dataset: 'CLEVR-Math',
        taskFamily: 'spatial',
        images: [imageAt(fields, 'image_filename', context.images, `${split}/${file}`)],
        question: fields.string('question', 'the question'),
        answer,
        answerType: 'number',
        metadata: { split, ...(template === undefined ? {} : { template: template.replace(/\.json$/, '') }), ...fields.pick('image_index') },
      };
    });
  },
};
