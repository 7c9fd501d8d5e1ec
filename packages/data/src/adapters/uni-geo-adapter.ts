import { basename, dirname, join } from 'node:path';
import { encodePng } from '@saccade/image';
import { multipleChoice } from '../answers';
import { convertRecords } from '../convert/convert-records';
import type { DatasetAdapter } from '../dataset-adapter';
import { DatasetFormatError, describeValue } from '../dataset-format-error';
import { saveEmbeddedImage } from '../images';
import { readPickle, type PickledArray } from '../readers/read-pickle';
import { arrayRecords } from '../readers/source-record';
import type { RecordFields } from '../record-fields';

/** A diagram stored as a NumPy uint8 array (height × width, or × 1, 3 or 4 channels) as PNG bytes. */
async function diagramPng(fields: RecordFields): Promise<Uint8Array> {
  const array = fields.get('image') as PickledArray | undefined;
  const [height, width, channels = 1] = array?.kind === 'ndarray' ? array.shape : [];
  if (array?.kind !== 'ndarray' || array.dtype.replace(/^[|<>=]/, '') !== 'u1' || height === undefined || width === undefined || ![1, 3, 4].includes(channels) || array.data.length !== height * width * channels) {
    fields.fail('image', 'the diagram as a NumPy uint8 array (height × width [× 1, 3 or 4])', array?.kind === 'ndarray' ? `an array of shape [${array.shape.join(', ')}] and dtype ${array.dtype}` : array);
  }
  let data = array.data;
  if (channels === 1) {
    data = new Uint8Array(height * width * 3);
    for (let index = 0; index < height * width; index++) data.fill(array.data[index]!, index * 3, index * 3 + 3);
  }
  return (await encodePng({ data, width, height, channels: channels === 4 ? 4 : 3 })).data;
}

/**
 * UniGeo (`UniGeo/calculation_<split>.pk`): a Python pickle of a list of problems `{English_problem,
 * choices, label (0-based index of the right option), image (the diagram as a NumPy array), …}`,
 * read without Python. The diagrams are written out as PNG under `--images` (content-hash names).
 * The proving files (`proving_<split>.pk`) have no options and are not tasks with an answer.
 */
export const uniGeoAdapter: DatasetAdapter = {
  name: 'UniGeo',
  aliases: [],
  taskFamily: 'geometry',
  input: '`UniGeo/calculation_<split>.pk` (a pickle): a list of `{English_problem, choices, label, image: NumPy array}`',
  images: 'where the diagrams are written as PNG (default: `images/` beside the output)',
  layout: { paths: ['calculation_<split>.pk'] },
  defaultImages: (_input, output) => join(dirname(output), 'images'),
  async *read(context) {
    const source = basename(context.input).replace(/\.pk$/, '');
    const problems = await readPickle(context.input);
    if (!Array.isArray(problems)) throw new DatasetFormatError({ location: { file: context.input }, field: '(document)', expected: 'a list of problems', received: describeValue(typeof problems) });
    yield* convertRecords(arrayRecords(context.input, problems), async (fields) => {
      const choices = fields.stringArray('choices', 'the options', { min: 2 });
      const choice = multipleChoice(fields, choices, fields.integer('label', 'the 0-based index of the right option'), 'label');
      const question = fields.has('English_problem') ? fields.string('English_problem', 'the problem in English') : fields.string('subject', 'the problem');
      const image = await saveEmbeddedImage(fields, 'image', await diagramPng(fields), context.images);
      const id = fields.has('id') ? String(fields.scalar('id', 'the problem id')) : String(fields.location.record);
      return {
        id: `unigeo-${source}-${id}`,
        dataset: 'UniGeo',
        taskFamily: 'geometry',
        images: [image],
        question,
        ...choice,
        metadata: { ...choice.metadata, source },
      };
    });
  },
};
