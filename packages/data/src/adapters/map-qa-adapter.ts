import { basename, dirname, join } from 'node:path';
import { inferAnswerType } from '../answers';
import { convertRecords } from '../convert/convert-records';
import type { DatasetAdapter } from '../dataset-adapter';
import { imageAt } from '../images';
import { documentRecords } from '../readers/document-records';

/**
 * MapQA (`MapQA_U/questions/<split>-QA.json`, likewise `MapQA_R`, `MapQA_S`): an array of
 * `{question_id, map_id, question, answer, question_type, …}`; the maps are `MapQA_U/images/<map_id>`.
 * An answer that is a list of regions is a `list` task.
 */
export const mapQaAdapter: DatasetAdapter = {
  name: 'MapQA',
  aliases: [],
  taskFamily: 'geospatial',
  input: '`MapQA_<U|R|S>/questions/<split>-QA.json`: an array of `{question_id, map_id, question, answer, question_type}`',
  images: 'the `images/` folder of the subset (default: `../images` from the file), holding `<map_id>`',
  layout: { paths: ['MapQA_*/questions/<split>-QA.json'] },
  defaultImages: (input) => join(dirname(dirname(input)), 'images'),
  async *read(context) {
    const source = basename(context.input, '.json');
    yield* convertRecords(await documentRecords(context.input), (fields) => {
      const mapId = fields.string('map_id', 'the map image file name');
      const raw = fields.get('answer');
      let answer: string | number | (string | number)[];
      if (Array.isArray(raw)) {
        answer = fields.stringArray('answer', 'an answer item', { min: 1 });
      } else answer = fields.scalar('answer', 'the answer');
      const id = fields.has('question_id') ? String(fields.scalar('question_id', 'the question id')) : `${source}-${fields.location.record}`;
      return {
        id: `mapqa-${id}`,
        dataset: 'MapQA',
        taskFamily: 'geospatial',
        images: [imageAt(fields, 'map_id', context.images, mapId)],
        question: fields.string('question', 'the question'),
        answer,
        answerType: Array.isArray(answer) ? 'list' : inferAnswerType(answer),
        metadata: { source, ...fields.pick('map_id', 'question_type', 'template_id') },
      };
    });
  },
};
