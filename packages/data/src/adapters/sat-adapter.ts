import { basename, dirname, join } from 'node:path';
import { multipleChoice, optionIndex } from '../answers';
import { convertRecords } from '../convert/convert-records';
import type { DatasetAdapter, DraftImage } from '../dataset-adapter';
import { saveEmbeddedImage } from '../images';
import { parquetInputRecords } from '../readers/parquet-input-records';

/**
 * SAT (the Hugging Face dataset `array/SAT`, Parquet): rows `{image_bytes: [{bytes, path}, …],
 * question, answers: [options], correct_answer, question_type}`. The images are written out under
 * `--images` (content-hash names).
 */
export const satAdapter: DatasetAdapter = {
  name: 'SAT',
  aliases: ['sat2'],
  taskFamily: 'spatial',
  input: 'a Parquet file of `array/SAT` (or a folder of them): rows `{image_bytes: [images], question, answers, correct_answer, question_type}`',
  images: 'where the embedded images are written (default: `images/` beside the output)',
  defaultImages: (_input, output) => join(dirname(output), 'images'),
  async *read(context) {
    yield* convertRecords(parquetInputRecords(context.input), async (fields) => {
      const choices = fields.stringArray('answers', 'the options', { min: 2 });
      const correct = fields.string('correct_answer', 'the right option\'s text');
      const index = optionIndex(choices, correct);
      if (index === undefined) return fields.fail('correct_answer', 'one of the options in answers');
      const choice = multipleChoice(fields, choices, index, 'correct_answer');
      const images: DraftImage[] = [];
      for (const [position, image] of fields.array('image_bytes', 'the images', { min: 1 }).entries()) {
        images.push(await saveEmbeddedImage(fields, `image_bytes[${position}]`, image, context.images));
      }
      return {
        id: `sat-${basename(fields.location.file, '.parquet')}-${fields.location.record}`,
        dataset: 'SAT',
        taskFamily: 'spatial',
        images,
        question: fields.string('question', 'the question'),
        ...choice,
        metadata: { ...choice.metadata, ...fields.pick('question_type') },
      };
    });
  },
};
