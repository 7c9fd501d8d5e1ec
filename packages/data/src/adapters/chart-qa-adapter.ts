import { basename, dirname, join } from 'node:path';
import { inferAnswerType } from '../answers';
import { convertRecords } from '../convert/convert-records';
import type { DatasetAdapter } from '../dataset-adapter';
import { imageAt } from '../images';
import { documentRecords } from '../readers/document-records';

/**
 * ChartQA (`ChartQA Dataset/<split>/<split>_human.json` or `_augmented.json`): an array of
 * `{imgname, query, label}`; the charts are in `<split>/png/<imgname>`.
 */
export const chartQaAdapter: DatasetAdapter = {
  name: 'ChartQA',
  aliases: [],
  taskFamily: 'chart',
  input: '`ChartQA Dataset/<split>/<split>_human.json` (or `_augmented.json`): an array of `{imgname, query, label}`',
  images: 'the `png/` folder beside the file (default)',
  layout: { paths: ['<split>/<split>_human.json', '<split>/<split>_augmented.json'] },
  defaultImages: (input) => join(dirname(input), 'png'),
  async *read(context) {
    const source = basename(context.input, '.json');
    yield* convertRecords(await documentRecords(context.input), (fields) => {
      const imgname = fields.string('imgname', 'the chart file name');
      const label = fields.scalar('label', 'the answer');
      return {
        id: `chartqa-${source}-${fields.location.record}`,
        dataset: 'ChartQA',
        taskFamily: 'chart',
        images: [imageAt(fields, 'imgname', context.images, imgname)],
        question: fields.string('query', 'the question'),
        answer: String(label),
        answerType: inferAnswerType(String(label)),
        metadata: { source, imgname },
      };
    });
  },
};
