import { dirname, join } from 'node:path';
import { letterIndex, multipleChoice } from '../answers';
import { convertRecords } from '../convert/convert-records';
import type { DatasetAdapter, DraftImage } from '../dataset-adapter';
import { saveEmbeddedImage } from '../images';
import { parquetInputRecords } from '../readers/parquet-input-records';

/**
 * BLINK (the Hugging Face dataset `BLINK-Benchmark/BLINK`: `<Subtask>/<split>-00000-of-00001.parquet`):
 * rows `{idx, question, sub_task, image_1 … image_4 ({bytes, path} or null), choices, answer: "(A)",
 * prompt, explanation}`. The images are written out under `--images` (content-hash names).
 * `--input` is one Parquet file or the dataset folder (then `--split`, default `val`, picks the files).
 */
export const blinkAdapter: DatasetAdapter = {
  name: 'BLINK',
  aliases: [],
  taskFamily: 'spatial',
  input: 'a Parquet file `<Subtask>/<split>-00000-of-00001.parquet`, or the dataset folder (with `--split`, default `val`): rows `{idx, question, sub_task, image_1…image_4, choices, answer: "(A)"}`',
  images: 'where the embedded images are written (default: `images/` beside the output)',
  defaultImages: (_input, output) => join(dirname(output), 'images'),
  async *read(context) {
    const split = context.split ?? 'val';
    yield* convertRecords(parquetInputRecords(context.input, (name) => name.startsWith(`${split}-`)), async (fields) => {
      const choices = fields.stringArray('choices', 'the options', { min: 2 });
      const index = letterIndex(fields.string('answer', 'the right option, e.g. "(A)"'), choices.length);
      if (index === undefined) return fields.fail('answer', `an option letter from (A) to (${String.fromCharCode(64 + choices.length)})`);
      const choice = multipleChoice(fields, choices, index, 'answer');
      const images: DraftImage[] = [];
      for (const name of ['image_1', 'image_2', 'image_3', 'image_4']) {
        if (fields.has(name)) images.push(await saveEmbeddedImage(fields, name, fields.get(name), context.images));
      }
      if (images.length === 0) fields.fail('image_1', 'an image');
      return {
        id: `blink-${fields.string('idx', 'the question id')}`,
        dataset: 'BLINK',
        taskFamily: 'spatial',
        images,
        question: fields.string('question', 'the question'),
        ...choice,
        metadata: { ...choice.metadata, ...fields.pick('sub_task') },
      };
    });
  },
};
