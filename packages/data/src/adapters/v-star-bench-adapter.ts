import { dirname } from 'node:path';
import { letterIndex, multipleChoice } from '../answers';
import { convertRecords } from '../convert/convert-records';
import type { DatasetAdapter } from '../dataset-adapter';
import { imageAt } from '../images';
import { readJsonlRecords } from '../readers/read-jsonl-records';
import type { RecordFields } from '../record-fields';

/** The question and options of a V* prompt: the lines before `(A) …`, then one option a line; the closing instruction is dropped. */
function splitPrompt(fields: RecordFields, text: string): { question: string; choices: string[] } {
  const lines = text.split(/\r?\n/);
  const first = lines.findIndex((line) => /^\([A-Z]\)\s/.test(line.trim()));
  if (first <= 0) fields.fail('text', 'the question followed by options "(A) …", "(B) …", one a line');
  const choices: string[] = [];
  for (const line of lines.slice(first)) {
    const match = /^\(([A-Z])\)\s*(.*)$/.exec(line.trim());
    if (match === null) break;
    choices.push(match[2]!.trim());
  }
  return { question: lines.slice(0, first).join('\n').trim(), choices };
}

/**
 * V*Bench (`vstar_bench/test_questions.jsonl`, streamed): one question a line, `{image:
 * "direct_attributes/sa_4690.jpg", text: "<question>\n(A) …\n(B) …\nAnswer with the option's letter
 * …", category, question_id, label: "A"}`; image paths are relative to the file's folder.
 */
export const vStarBenchAdapter: DatasetAdapter = {
  name: 'V*Bench',
  aliases: ['vstar', 'vstarbench', 'v*'],
  taskFamily: 'visual-search',
  input: '`vstar_bench/test_questions.jsonl` (JSONL): `{image, text: "<question>\\n(A) …\\n(B) …", category, question_id, label: "A"}`',
  images: 'the file\'s folder (default), holding `direct_attributes/` and `relative_position/`',
  layout: { paths: ['test_questions.jsonl'] },
  defaultImages: (input) => dirname(input),
  async *read(context) {
    yield* convertRecords(readJsonlRecords(context.input), (fields) => {
      const { question, choices } = splitPrompt(fields, fields.string('text', 'the question with its options'));
      const index = letterIndex(fields.string('label', 'the letter of the right option'), choices.length);
      if (index === undefined) return fields.fail('label', `an option letter from A to ${String.fromCharCode(64 + choices.length)}`);
      const choice = multipleChoice(fields, choices, index, 'label');
      return {
        id: `vstar-${fields.scalar('question_id', 'the question id')}`,
        dataset: 'V*Bench',
        taskFamily: 'visual-search',
        images: [imageAt(fields, 'image', context.images, fields.string('image', 'the image path'))],
        question,
        ...choice,
        metadata: { ...choice.metadata, ...fields.pick('category') },
      };
    });
  },
};
