import { basename, join } from 'node:path';
import { letterIndex, multipleChoice } from '../answers';
import { convertRecords } from '../convert/convert-records';
import type { DatasetAdapter } from '../dataset-adapter';
import { imageFile } from '../images';
import { problemFolderRecords } from '../readers/folder-records';

/**
 * Geometry3K (Inter-GPS `data/geometry3k/<split>/`): one folder per problem, `<id>/data.json`
 * (`{id, problem_text, choices, answer: "B", problem_type_graph, problem_type_goal, …}`) and the
 * diagram `<id>/img_diagram.png`.
 */
export const geometry3kAdapter: DatasetAdapter = {
  name: 'Geometry3K',
  aliases: ['geometry3000', 'geo3k'],
  taskFamily: 'geometry',
  input: 'the split folder `geometry3k/<split>/`, one folder per problem: `<id>/data.json` (`{id, problem_text, choices, answer: "B"}`) and `<id>/img_diagram.png`',
  images: 'the split folder itself (default)',
  layout: { paths: ['<split>/'], holds: '*/data.json' },
  defaultImages: (input) => input,
  async *read(context) {
    const split = basename(context.input);
    yield* convertRecords(problemFolderRecords(context.input, 'data.json'), (fields) => {
      const key = String(fields.get('__key'));
      const choices = fields.stringArray('choices', 'the options', { min: 2 });
      const letter = fields.string('answer', 'the letter of the right option');
      const index = letterIndex(letter, choices.length);
      if (index === undefined) return fields.fail('answer', `an option letter from A to ${String.fromCharCode(64 + choices.length)}`);
      const choice = multipleChoice(fields, choices, index, 'answer');
      const id = fields.has('id') ? String(fields.scalar('id', 'the problem id')) : key;
      return {
        id: `geometry3k-${id}`,
        dataset: 'Geometry3K',
        taskFamily: 'geometry',
        images: [imageFile(join(context.images, key), 'img_diagram.png', `${key}/img_diagram.png`)],
        question: fields.string('problem_text', 'the problem'),
        ...choice,
        metadata: { ...choice.metadata, split, ...fields.pick('problem_type_graph', 'problem_type_goal') },
      };
    });
  },
};
