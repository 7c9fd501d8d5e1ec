import { dirname } from 'node:path';
import { multipleChoice, optionIndex } from '../answers';
import { convertRecords } from '../convert/convert-records';
import type { DatasetAdapter } from '../dataset-adapter';
import { imageAt } from '../images';
import { documentRecords } from '../readers/document-records';

/**
 * MathVista (`data/testmini.json`): an object keyed by pid, each `{question, image: "images/<pid>.jpg",
 * choices, unit, precision, answer, question_type: multi_choice | free_form, answer_type: integer |
 * float | text | list, pid, metadata: {source, category, task, context, grade, skills, …}}`. The
 * record's metadata (skills, context) is kept: the checker reads it for its tolerances.
 */
export const mathVistaAdapter: DatasetAdapter = {
  name: 'MathVista',
  aliases: [],
  taskFamily: 'ood',
  input: '`data/testmini.json`: `{"<pid>": {question, image, choices, unit, precision, answer, question_type, answer_type, metadata}}`',
  images: 'the file\'s folder (default), which holds `images/`',
  layout: { paths: ['data/testmini.json'] },
  defaultImages: (input) => dirname(input),
  async *read(context) {
    yield* convertRecords(await documentRecords(context.input, { keyed: true }), (fields) => {
      const pid = fields.has('pid') ? String(fields.scalar('pid', 'the problem id')) : String(fields.get('__key'));
      const answer = String(fields.scalar('answer', 'the answer'));
      const questionType = fields.string('question_type', 'multi_choice or free_form');
      const answerType = fields.optionalString('answer_type', 'integer, float, text or list');
      const inner = fields.has('metadata') ? fields.object('metadata', 'the problem\'s metadata').value : {};
      const metadata = { ...inner, ...fields.pick('question_type', 'answer_type', 'unit', 'precision', 'pid') };
      const base = {
        id: `mathvista-${pid}`,
        dataset: 'MathVista',
        taskFamily: 'ood',
        images: [imageAt(fields, 'image', context.images, fields.string('image', 'the image path'))],
        question: fields.string('question', 'the question'),
      };
      if (questionType === 'multi_choice') {
        const choices = fields.stringArray('choices', 'the options', { min: 2 });
        const index = optionIndex(choices, answer);
        if (index === undefined) return fields.fail('answer', 'one of the choices', answer);
        const choice = multipleChoice(fields, choices, index, 'answer');
        return { ...base, ...choice, metadata: { ...metadata, ...choice.metadata } };
      }
      if (questionType !== 'free_form') fields.fail('question_type', 'multi_choice or free_form');
      return { ...base, answer, answerType: answerType === 'integer' || answerType === 'float' ? 'number' : 'text', metadata };
    });
  },
};
