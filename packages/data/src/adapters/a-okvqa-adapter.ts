import { convertRecords } from '../convert/convert-records';
import { multipleChoice } from '../answers';
import type { DatasetAdapter } from '../dataset-adapter';
import { imageFile } from '../images';
import { documentRecords } from '../readers/document-records';

/**
 * A-OKVQA (`aokvqa_v1p0_<split>.json`): an array of `{split, image_id, question_id, question,
 * choices, correct_choice_idx, direct_answers, difficult_direct_answer, rationales}`; the photos
 * are COCO 2017's, so `--images` names the COCO folder holding `<split>2017/<image_id, 12 digits>.jpg`.
 */
export const aOkvqaAdapter: DatasetAdapter = {
  name: 'A-OKVQA',
  aliases: ['aokvqa'],
  taskFamily: 'other',
  input: '`aokvqa_v1p0_<split>.json`: an array of `{split, image_id, question_id, question, choices, correct_choice_idx, direct_answers}`',
  images: 'required: the COCO folder holding `<split>2017/<image_id as 12 digits>.jpg`',
  layout: { paths: ['aokvqa_v1p0_<split>.json'] },
  defaultImages: () => undefined,
  async *read(context) {
    yield* convertRecords(await documentRecords(context.input), (fields) => {
      const split = fields.string('split', 'the split');
      const imageId = fields.integer('image_id', 'the COCO image id', { min: 0 });
      const choice = multipleChoice(fields, fields.stringArray('choices', 'the options', { min: 2 }), fields.integer('correct_choice_idx', 'the 0-based index of the right option'), 'correct_choice_idx');
      return {
        id: `aokvqa-${fields.string('question_id', 'the question id')}`,
        dataset: 'A-OKVQA',
        taskFamily: 'other',
        images: [imageFile(context.images, `${split}2017/${String(imageId).padStart(12, '0')}.jpg`, fields.path('image_id'))],
        question: fields.string('question', 'the question'),
        ...choice,
        metadata: {
          ...choice.metadata,
          direct_answers: fields.stringArray('direct_answers', 'the free-form answers of the annotators', { min: 1 }),
          ...fields.pick('difficult_direct_answer', 'image_id', 'split', 'rationales'),
        },
      };
    });
  },
};
