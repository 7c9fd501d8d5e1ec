import { dirname, join } from 'node:path';
import { inferAnswerType, multipleChoice, optionIndex } from '../answers';
import { convertRecords } from '../convert/convert-records';
import type { DatasetAdapter } from '../dataset-adapter';
import { imageFile } from '../images';
import { documentRecords } from '../readers/document-records';

/**
 * TabMWP (PromptPG's `data/tabmwp/problems_<split>.json`): an object keyed by problem id, each
 * `{question, choices, answer, unit, table_title, table, ques_type: free_text | multi_choice,
 * ans_type, grade, split, …}`; the table images are `tables/<id>.png` beside the file.
 */
export const tabMwpAdapter: DatasetAdapter = {
  name: 'TabMWP',
  aliases: [],
  taskFamily: 'ood',
  input: '`data/tabmwp/problems_<split>.json`: `{"<id>": {question, choices, answer, unit, ques_type, ans_type, …}}`',
  images: 'the `tables/` folder beside the file (default), holding `<id>.png`',
  layout: { paths: ['data/tabmwp/problems_<split>.json'] },
  defaultImages: (input) => join(dirname(input), 'tables'),
  async *read(context) {
    yield* convertRecords(await documentRecords(context.input, { keyed: true }), (fields) => {
      const id = String(fields.get('__key'));
      const answer = String(fields.scalar('answer', 'the answer'));
      const questionType = fields.string('ques_type', 'free_text or multi_choice');
      const base = {
        id: `tabmwp-${id}`,
        dataset: 'TabMWP',
        taskFamily: 'ood',
        images: [imageFile(context.images, `${id}.png`, `tables/${id}.png`)],
        question: fields.string('question', 'the question'),
      };
      const metadata = fields.pick('ques_type', 'ans_type', 'unit', 'grade', 'table_title', 'split');
      if (questionType === 'multi_choice') {
        const choices = fields.stringArray('choices', 'the options', { min: 2 });
        const index = optionIndex(choices, answer);
        if (index === undefined) return fields.fail('answer', 'one of the choices', answer);
        const choice = multipleChoice(fields, choices, index, 'answer');
        return { ...base, ...choice, metadata: { ...choice.metadata, ...metadata } };
      }
      if (questionType !== 'free_text') fields.fail('ques_type', 'free_text or multi_choice');
      return { ...base, answer, answerType: inferAnswerType(answer), metadata };
    });
  },
};
