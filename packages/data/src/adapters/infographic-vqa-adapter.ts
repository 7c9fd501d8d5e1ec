import { convertRecords } from '../convert/convert-records';
import type { DatasetAdapter } from '../dataset-adapter';
import { imageAt } from '../images';
import { documentRecords } from '../readers/document-records';

/**
 * InfographicVQA (`infographicsVQA_<split>_v1.0_withQT.json`): `{"data": [{questionId, question,
 * image_local_name, answers, answer_type, evidence, operation/reasoning, …}]}`; the images are
 * downloaded separately into one folder, so `--images` names it. Scored with ANLS.
 */
export const infographicVqaAdapter: DatasetAdapter = {
  name: 'InfographicVQA',
  aliases: ['infovqa'],
  taskFamily: 'document',
  input: '`infographicsVQA_<split>_v1.0_withQT.json`: `{"data": [{questionId, question, image_local_name, answers, answer_type}]}`',
  images: 'required: the folder holding the `image_local_name` files (the images archive is separate)',
  layout: { paths: ['infographicsVQA_<split>_v1.0_withQT.json'] },
  defaultImages: () => undefined,
  async *read(context) {
    yield* convertRecords(await documentRecords(context.input, { key: 'data' }), (fields) => {
      const image = fields.string('image_local_name', 'the infographic file name');
      return {
        id: `infographicvqa-${fields.scalar('questionId', 'the question id')}`,
        dataset: 'InfographicVQA',
        taskFamily: 'document',
        images: [imageAt(fields, 'image_local_name', context.images, image)],
        question: fields.string('question', 'the question'),
        answer: fields.stringArray('answers', 'the accepted answers', { min: 1 }),
        answerType: 'text',
        metadata: fields.pick('answer_type', 'evidence', 'operation/reasoning', 'data_split'),
      };
    });
  },
};
