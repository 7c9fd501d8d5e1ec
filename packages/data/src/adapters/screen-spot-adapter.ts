import { basename, dirname, join } from 'node:path';
import { convertRecords } from '../convert/convert-records';
import type { DatasetAdapter } from '../dataset-adapter';
import { imageAt } from '../images';
import { documentRecords } from '../readers/document-records';

/**
 * ScreenSpot (SeeClick's `screenspot_<mobile|desktop|web>.json`): an array of `{img_filename,
 * bbox: [x, y, width, height], instruction, data_type: text | icon, data_source}`; screenshots in
 * `screenspot_imgs/`. The box becomes `[x1, y1, x2, y2]` pixels: a click inside it is right.
 */
export const screenSpotAdapter: DatasetAdapter = {
  name: 'ScreenSpot',
  aliases: ['os-atlas'],
  taskFamily: 'grounding',
  input: '`screenspot_<mobile|desktop|web>.json`: an array of `{img_filename, bbox: [x, y, w, h], instruction, data_type, data_source}`',
  images: 'the `screenspot_imgs/` folder beside the file (default)',
  layout: { paths: ['screenspot_<split>.json'] },
  defaultImages: (input) => join(dirname(input), 'screenspot_imgs'),
  async *read(context) {
    const source = basename(context.input, '.json');
    const platform = source.replace(/^screenspot_/, '');
    yield* convertRecords(await documentRecords(context.input), (fields) => {
      const bbox = fields.array('bbox', 'the target box [x, y, width, height] in pixels');
      if (bbox.length !== 4 || !bbox.every((value) => typeof value === 'number' && Number.isFinite(value)) || (bbox[2] as number) < 0 || (bbox[3] as number) < 0) {
        fields.fail('bbox', 'the target box [x, y, width, height]: four numbers, width and height ≥ 0');
      }
      const [x, y, width, height] = bbox as number[];
      return {
        id: `screenspot-${platform}-${fields.location.record}`,
        dataset: 'ScreenSpot',
        taskFamily: 'grounding',
        images: [imageAt(fields, 'img_filename', context.images, fields.string('img_filename', 'the screenshot file name'))],
        question: fields.string('instruction', 'the instruction'),
        answer: [x!, y!, x! + width!, y! + height!],
        answerType: 'point',
        metadata: { platform, bbox_xywh: bbox, ...fields.pick('data_type', 'data_source') },
      };
    });
  },
};
