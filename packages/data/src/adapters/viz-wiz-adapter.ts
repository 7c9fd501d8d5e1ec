import { basename, dirname, join } from 'node:path';
import { convertRecords } from '../convert/convert-records';
import type { DatasetAdapter } from '../dataset-adapter';
import { imageAt } from '../images';
import { documentRecords } from '../readers/document-records';

/**
 * VizWiz VQA (`Annotations/<split>.json`): an array of `{image, question, answers: [{answer,
 * answer_confidence}], answer_type, answerable}`; the photos are in `<split>/` beside
 * `Annotations/`. The answer is every annotator's answer (the VQA score counts them).
 */
export const vizWizAdapter: DatasetAdapter = {
  name: 'VizWiz',
  aliases: [],
  taskFamily: 'science',
  input: '`Annotations/<split>.json`: an array of `{image, question, answers: [{answer, answer_confidence}], answer_type, answerable}`',
  images: 'the `<split>/` folder beside `Annotations/` (default)',
  layout: { paths: ['Annotations/<split>.json'] },
  defaultImages: (input) => join(dirname(dirname(input)), basename(input, '.json')),
  async *read(context) {
    yield* convertRecords(await documentRecords(context.input), (fields) => {
      const image = fields.string('image', 'the photo file name');
      const answers = fields.objects('answers', 'the annotators\' answers', { min: 1 });
      return {
        id: `vizwiz-${image.replace(/\.\w+$/, '')}`,
        dataset: 'VizWiz',
        taskFamily: 'science',
        images: [imageAt(fields, 'image', context.images, image)],
        question: fields.string('question', 'the question'),
        answer: answers.map((answer) => answer.string('answer', 'an annotator\'s answer', { allowEmpty: true })),
        answerType: 'text',
        metadata: {
          ...fields.pick('answer_type', 'answerable'),
          answer_confidence: answers.map((answer) => answer.get('answer_confidence') ?? null),
        },
      };
    });
  },
};
