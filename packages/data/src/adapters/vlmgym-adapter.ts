import { dirname } from 'node:path';
import { ANSWER_TYPES, type AnswerType } from '@saccade/core';
import { inferAnswerType, letterIndex, multipleChoice, optionIndex } from '../answers';
import { convertRecords } from '../convert/convert-records';
import type { DatasetAdapter, TaskDraft } from '../dataset-adapter';
import { imageAt } from '../images';
import { jsonOrJsonlRecords } from '../readers/json-or-jsonl-records';
import type { RecordFields } from '../record-fields';

/** The right option of a vlmgym multiple-choice record: `metadata.answer_index`, else the answer as option text, else as letter. */
function choiceIndex(fields: RecordFields, choices: string[], metadata: Record<string, unknown>): number {
  const declared = metadata['answer_index'];
  if (typeof declared === 'number' && Number.isInteger(declared)) return declared;
  const answer = fields.scalar('answer', 'the answer');
  const index = typeof answer === 'number' ? answer : (optionIndex(choices, answer) ?? letterIndex(answer, choices.length));
  if (index === undefined) return fields.fail('answer', 'one of the choices, its letter, or metadata.answer_index');
  return index;
}

/**
 * VISTA-Gym's unified "vlmgym" samples (a JSON array, or JSONL streamed): `{id, dataset,
 * image_path, question, answer, choices | null, task, metadata}`. `task` is the task family;
 * `metadata.answer_type` (one of Saccade's answer types) wins over the type read from the answer.
 */
export const vlmgymAdapter: DatasetAdapter = {
  name: 'vlmgym',
  aliases: ['vista'],
  taskFamily: 'other',
  input: 'a JSON array (or JSONL) of `{id, dataset, image_path, question, answer, choices | null, task, metadata}`',
  images: 'the file\'s folder (default): `image_path` is relative to it',
  layout: { paths: [] },
  defaultImages: (input) => dirname(input),
  async *read(context) {
    yield* convertRecords(jsonOrJsonlRecords(context.input), (fields): TaskDraft => {
      const metadata = fields.has('metadata') ? { ...fields.object('metadata', 'the sample\'s metadata').value } : {};
      const imagePaths = Array.isArray(fields.get('image_path')) ? fields.stringArray('image_path', 'an image path') : [fields.string('image_path', 'the image path')];
      const base = {
        id: String(fields.scalar('id', 'the sample id')),
        dataset: context.datasetName ?? fields.string('dataset', 'the dataset name'),
        taskFamily: context.taskFamily ?? fields.optionalString('task', 'the task family') ?? 'other',
        images: imagePaths.map((path, index) => imageAt(fields, Array.isArray(fields.get('image_path')) ? `image_path[${index}]` : 'image_path', context.images, path)),
        question: fields.string('question', 'the question'),
      };
      if (fields.has('choices')) {
        const choices = fields.stringArray('choices', 'the options', { min: 2 });
        const choice = multipleChoice(fields, choices, choiceIndex(fields, choices, metadata), 'answer');
        return { ...base, ...choice, metadata: { ...metadata, ...choice.metadata } };
      }
      const declared = metadata['answer_type'];
      const raw = fields.get('answer');
      const answer: TaskDraft['answer'] = Array.isArray(raw)
        ? fields.array('answer', 'the answers', { min: 1 }).map((item, index) => (typeof item === 'number' || typeof item === 'string' ? item : fields.fail(`answer[${index}]`, 'a string or a number', item)))
        : typeof raw === 'boolean'
          ? raw
          : fields.scalar('answer', 'the answer');
      const answerType: AnswerType =
        typeof declared === 'string' && (ANSWER_TYPES as readonly string[]).includes(declared) ? (declared as AnswerType) : Array.isArray(answer) ? 'list' : inferAnswerType(answer);
      return { ...base, answer, answerType, ...(Object.keys(metadata).length > 0 ? { metadata } : {}) };
    });
  },
};
