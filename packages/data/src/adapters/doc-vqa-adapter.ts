import { dirname } from 'node:path';
import { convertRecords } from '../convert/convert-records';
import type { DatasetAdapter } from '../dataset-adapter';
import { imageAt } from '../images';
import { documentRecords } from '../readers/document-records';

/**
 * DocVQA (`<split>/<split>_v1.0.json`, e.g. `val/val_v1.0.json`): `{"data": [{questionId, question,
 * image: "documents/…png", docId, answers, question_types, …}]}`; image paths are relative to the
 * file's folder. Scored with ANLS over all `answers`.
 */
export const docVqaAdapter: DatasetAdapter = {
  name: 'DocVQA',
  aliases: [],
  taskFamily: 'document',
  input: '`<split>/<split>_v1.0.json`: `{"data": [{questionId, question, image: "documents/…", docId, answers}]}`',
  images: 'the file\'s folder (default), which holds `documents/`',
  layout: { paths: ['<split>/<split>_v1.0.json'] },
  defaultImages: (input) => dirname(input),
  async *read(context) {
    yield* convertRecords(await documentRecords(context.input, { key: 'data' }), (fields) => {
      const image = fields.string('image', 'the page image path');
      return {
        id: `docvqa-${fields.scalar('questionId', 'the question id')}`,
        dataset: 'DocVQA',
        taskFamily: 'document',
        images: [imageAt(fields, 'image', context.images, image)],
        question: fields.string('question', 'the question'),
        answer: fields.stringArray('answers', 'the accepted answers', { min: 1 }),
        answerType: 'text',
        metadata: fields.pick('docId', 'question_types', 'ucsf_document_id', 'ucsf_document_page_no', 'data_split'),
      };
    });
  },
};
