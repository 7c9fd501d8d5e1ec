import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { multipleChoice } from '../answers';
import { convertRecords } from '../convert/convert-records';
import type { DatasetAdapter, TaskDraft } from '../dataset-adapter';
import { DatasetFormatError } from '../dataset-format-error';
import { imageAt } from '../images';
import { jsonFileRecords } from '../readers/folder-records';

/** The image names of AI2D's test split (`ai2d_test_ids.csv` beside `questions/`: one id a line). */
async function testIds(questions: string): Promise<Set<string>> {
  const file = join(dirname(questions), 'ai2d_test_ids.csv');
  try {
    return new Set((await readFile(file, 'utf8')).split(/\r?\n/).map((line) => line.trim()).filter((line) => line.length > 0));
  } catch (error) {
    throw new DatasetFormatError({ location: { file }, field: '(file)', expected: 'the test split ids (--split needs ai2d_test_ids.csv beside questions/)', received: (error as Error).message, cause: error });
  }
}

/**
 * AI2D (`ai2d/questions/<image>.json`, one diagram a file: `{imageName, questions: {"<text>":
 * {abcLabel, answerTexts, correctAnswer, questionId}}}`) with diagrams in `ai2d/images/`. Each file
 * holds several questions, each a task. `--split test` or `train` uses `ai2d_test_ids.csv`.
 */
export const ai2dAdapter: DatasetAdapter = {
  name: 'AI2D',
  aliases: [],
  taskFamily: 'science',
  input: 'the folder `ai2d/questions/`, one diagram a file: `{imageName, questions: {"<question>": {answerTexts, correctAnswer, questionId, abcLabel}}}`',
  images: 'the `images/` folder beside it (default)',
  layout: { paths: ['questions/'], holds: '*.json' },
  defaultImages: (input) => join(dirname(input), 'images'),
  async *read(context) {
    if (context.split !== undefined && context.split !== 'test' && context.split !== 'train') {
      throw new DatasetFormatError({ location: { file: context.input }, field: '--split', expected: 'test or train (from ai2d_test_ids.csv)', received: JSON.stringify(context.split) });
    }
    const test = context.split === undefined ? undefined : await testIds(context.input);
    yield* convertRecords(jsonFileRecords(context.input), (fields) => {
      const imageName = fields.string('imageName', 'the diagram file name');
      if (test !== undefined && test.has(imageName.replace(/\.\w+$/, '')) !== (context.split === 'test')) return { filtered: `split ${context.split === 'test' ? 'train' : 'test'}` };
      const questions = fields.object('questions', 'the questions keyed by their text');
      return Object.keys(questions.value).map((text): TaskDraft => {
        const question = questions.object(text, 'a question');
        const choice = multipleChoice(question, question.stringArray('answerTexts', 'the options', { min: 2 }), question.integer('correctAnswer', 'the 0-based index of the right option'), 'correctAnswer');
        return {
          id: `ai2d-${question.string('questionId', 'the question id')}`,
          dataset: 'AI2D',
          taskFamily: 'science',
          images: [imageAt(fields, 'imageName', context.images, imageName)],
          question: text,
          ...choice,
          metadata: { ...choice.metadata, ...question.pick('abcLabel') },
        };
      });
    });
  },
};
