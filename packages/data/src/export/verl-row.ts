import { choiceLetter, expectedChoiceIndex, taskPrompt, vqaSystemPrompt, type AnswerFormat, type VisionQATask } from '@saccade/core';

/**
 * One row of verl's RL dataset layout (what its `examples/data_preprocess` scripts write and its
 * `RLHFDataset` reads): the prompt as chat messages with one `<image>` per image, the images as
 * `{bytes, path}` (the Hugging Face image struct), the rule reward's ground truth, and the task's
 * full target in `extra_info` so a reward function can run Saccade's checker on it.
 */
export interface VerlRow {
  data_source: string;
  prompt: { role: string; content: string }[];
  images: { bytes: Uint8Array; path: string }[];
  ability: string;
  reward_model: { style: 'rule'; ground_truth: string };
  extra_info: {
    split: string;
    index: number;
    id: string;
    question: string;
    answer: string;
    answer_type: string;
    /** JSON of `{answer, choices?, metadata?}`: the target Saccade's answer checkers take. */
    target: string;
  };
}

/**
 * How a task becomes a verl row: the split it is tagged with, the answer format the prompt asks
 * for, and whether the system prompt leads.
 */
export interface VerlRowOptions {
  /** The split written in `extra_info.split` (default `train`). */
  split?: string;
  /** How the prompt asks for the answer (default VISTA's `<answer>…</answer>`). */
  format?: AnswerFormat;
  /** Put the system prompt first (default true). */
  systemPrompt?: boolean;
}

/** The answer as one string: a list or box as JSON, a boolean as yes/no. */
export function answerText(answer: VisionQATask['answer']): string {
  if (Array.isArray(answer)) return JSON.stringify(answer);
  if (typeof answer === 'boolean') return answer ? 'yes' : 'no';
  return String(answer);
}

/**
 * A task as a verl row. The ground truth is what the prompt asks the model to write: the option's
 * letter for multiple choice, else the answer as text (a list or box as JSON).
 */
export function verlRow(task: VisionQATask, images: { bytes: Uint8Array; path: string }[], index: number, options: VerlRowOptions = {}): VerlRow {
  const format = options.format ?? 'final-answer';
  const choice = task.answerType === 'multiple-choice' ? expectedChoiceIndex(task) : undefined;
  const groundTruth = choice === undefined ? answerText(task.answer) : choiceLetter(choice);
  const target = { answer: task.answer, ...(task.choices === undefined ? {} : { choices: task.choices }), ...(task.metadata === undefined ? {} : { metadata: task.metadata }) };
  return {
    data_source: task.dataset,
    prompt: [...(options.systemPrompt === false ? [] : [{ role: 'system', content: vqaSystemPrompt(format) }]), { role: 'user', content: taskPrompt(task, format) }],
    images,
    ability: task.taskFamily,
    reward_model: { style: 'rule', ground_truth: groundTruth },
    extra_info: { split: options.split ?? 'train', index, id: task.id, question: task.question, answer: answerText(task.answer), answer_type: task.answerType, target: JSON.stringify(target) },
  };
}
