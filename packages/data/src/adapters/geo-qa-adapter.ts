import { dirname, join } from 'node:path';
import { multipleChoice } from '../answers';
import { convertRecords } from '../convert/convert-records';
import type { DatasetAdapter } from '../dataset-adapter';
import { imageFile } from '../images';
import { jsonFileRecords } from '../readers/folder-records';

/**
 * GeoQA (`GeoQA3/json/<n>.json`, one problem a file: `{id, subject, choices, label, …}`, the
 * label the 0-based index of the right option) with diagrams in `GeoQA3/image/<n>.png`. GeoQA+
 * ships the same layout.
 */
export const geoQaAdapter: DatasetAdapter = {
  name: 'GeoQA',
  aliases: ['geoqa+', 'geoqaplus'],
  taskFamily: 'geometry',
  input: 'the folder `GeoQA3/json/`, one problem a file: `<n>.json` with `{subject, choices, label}` (label: the 0-based index of the right option)',
  images: 'the `image/` folder beside it (default), holding `<n>.png`',
  layout: { paths: ['json/'], holds: '*.json' },
  defaultImages: (input) => join(dirname(input), 'image'),
  async *read(context) {
    yield* convertRecords(jsonFileRecords(context.input), (fields) => {
      const key = String(fields.get('__key'));
      const choices = fields.stringArray('choices', 'the options', { min: 2 });
      const choice = multipleChoice(fields, choices, fields.integer('label', 'the 0-based index of the right option'), 'label');
      return {
        id: `geoqa-${key}`,
        dataset: 'GeoQA',
        taskFamily: 'geometry',
        images: [imageFile(context.images, `${key}.png`, `image/${key}.png`)],
        question: fields.string('subject', 'the problem'),
        ...choice,
        metadata: { ...choice.metadata, ...fields.pick('formal_point', 'comment') },
      };
    });
  },
};
