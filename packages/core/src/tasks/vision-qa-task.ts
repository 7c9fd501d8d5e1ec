import { expectedChoiceIndex } from '../checkers/choices';
import { parseBox } from '../checkers/grounding-checkers';
import { parseYesNo } from '../checkers/normalize-answer';
import { parseNumericAnswer } from '../checkers/parse-number';
import type { ImageData } from '@saccade/spec';
import { z } from 'zod';

/** How a task's answer is written; picks the checker when the dataset has none of its own. */
export const ANSWER_TYPES = ['multiple-choice', 'yes-no', 'number', 'text', 'list', 'point', 'box'] as const;
/** One of {@link ANSWER_TYPES}. */
export type AnswerType = (typeof ANSWER_TYPES)[number];

/** An image of a task: a path (relative to the task file in a file) or, in memory, the image itself. */
export type TaskImage = string | ImageData;

/**
 * One vision-QA task: a line of a Saccade task file (JSONL), or an in-memory task.
 *
 * @example
 * {"id": "chartqa-17", "dataset": "ChartQA", "taskFamily": "chart", "images": ["png/17.png"],
 *  "question": "What is the highest value?", "answer": "45", "answerType": "number"}
 */
export interface VisionQATask {
  /** Unique within its file. */
  id: string;
  /** The dataset, which picks the answer checker (`ChartQA`, `clevr-math`, …; see docs/answer-checkers.md). */
  dataset: string;
  /** VISTA-Gym's task family: chart, geometry, geospatial, document, science, spatial, other, … */
  taskFamily: string;
  /** Image paths (relative to the task file, or absolute) or in-memory images. May be empty. */
  images: TaskImage[];
  question: string;
  /** The options of a multiple-choice question, in order (A first). */
  choices?: string[];
  /** The reference answer, or several (annotators' answers, list items, a box `[x1, y1, x2, y2]`). */
  answer: string | number | boolean | (string | number)[];
  answerType: AnswerType;
  /** Anything else the dataset carries (`answer_index`, `direct_answers`, `precision`, …). */
  metadata?: Record<string, unknown>;
  /** Where the task was read from; set by the readers, not written in files. */
  location?: { file: string; line: number };
}

const nonEmpty = (what: string) => z.string({ error: `a non-empty string (${what})` }).min(1, { error: `a non-empty string (${what})` });

const isImageData = (value: unknown): value is ImageData =>
  typeof value === 'object' && value !== null && (value as ImageData).data instanceof Uint8Array && typeof (value as ImageData).mediaType === 'string';

function taskSchema(images: z.ZodType<TaskImage>) {
  return z
    .object({
      id: z.union([nonEmpty('the task id'), z.number().int()], { error: 'a non-empty string (the task id)' }).transform(String),
      dataset: nonEmpty('the dataset name, e.g. "ChartQA"'),
      taskFamily: nonEmpty('the task family, e.g. "chart"'),
      images: z.array(images, { error: 'an array of image paths' }),
      question: z.string({ error: 'a string (the question)' }),
      choices: z.array(z.string({ error: 'a string (an option)' }), { error: 'an array of option strings' }).min(2, { error: 'at least 2 options' }).optional(),
      answer: z.union([z.string(), z.number(), z.boolean(), z.array(z.union([z.string(), z.number()])).min(1)], {
        error: 'a string, number, boolean or non-empty array of strings and numbers',
      }),
      answerType: z.enum(ANSWER_TYPES, { error: `one of ${ANSWER_TYPES.join(' | ')}` }),
      metadata: z.record(z.string(), z.unknown(), { error: 'an object' }).optional(),
    })
    .superRefine((task, context) => {
      const problem = answerProblem(task);
      if (problem !== undefined) context.addIssue({ code: 'custom', path: [problem.field], message: problem.expected });
    });
}

/** What an answer must look like for its answer type; undefined when it fits. */
function answerProblem(task: { answer: VisionQATask['answer']; answerType: AnswerType; choices?: string[]; metadata?: Record<string, unknown> }): { field: string; expected: string } | undefined {
  const { answer, answerType } = task;
  const single = Array.isArray(answer) ? answer[0] : answer;
  switch (answerType) {
    case 'multiple-choice':
      if (task.choices === undefined) return { field: 'choices', expected: 'an array of options (answerType is multiple-choice)' };
      if (expectedChoiceIndex(task) === undefined) return { field: 'answer', expected: "one of the choices, its letter, or its 0-based index (or metadata.answer_index)" };
      return undefined;
    case 'yes-no':
      return parseYesNo(single as string | number | boolean) === undefined ? { field: 'answer', expected: 'yes or no (answerType is yes-no)' } : undefined;
    case 'number':
      return typeof single === 'boolean' || parseNumericAnswer(String(single)) === undefined ? { field: 'answer', expected: 'a number (answerType is number)' } : undefined;
    case 'point':
    case 'box':
      return parseBox(answer) === undefined ? { field: 'answer', expected: `a box [x1, y1, x2, y2] of four numbers (answerType is ${answerType})` } : undefined;
    default:
      return undefined;
  }
}

/** A task as a file line holds it: image paths only. */
export const taskFileLineSchema = taskSchema(nonEmpty('an image path'));

/** A task in memory: image paths or images. */
export const memoryTaskSchema = taskSchema(
  z.union([nonEmpty('an image path'), z.custom<ImageData>(isImageData)], { error: 'an image path or an ImageData {data, mediaType}' }),
);

/** A task before validation, as callers write it (`id` may be a number). */
export type VisionQATaskInput = Omit<VisionQATask, 'id' | 'location'> & { id: string | number };
