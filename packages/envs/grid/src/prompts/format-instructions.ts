import { formatTemplate, type OutputFormat } from '@saccade/core';

/** What each part of a response holds, and a filled-in example, per format. */
export interface FormatExample {
  observation: string;
  reasoning: string;
  prediction: string;
  answer: string;
}

const PART_HELP: Readonly<Record<string, string>> = {
  think: 'your step-by-step thinking',
  observation: 'what you see now: where the objects are relative to the player',
  reasoning: 'how you choose your moves',
  prediction: 'where the objects will be relative to the player after your moves',
  answer: 'your actions',
};

/** The response written in a format with the example's parts. */
export function formatResponse(format: OutputFormat, parts: FormatExample): string {
  const answer = `<answer>${parts.answer}</answer>`;
  switch (format) {
    case 'no_think':
      return answer;
    case 'free_think':
      return `<think>${parts.observation} ${parts.reasoning}</think>${answer}`;
    case 'grounding':
      return `<think><observation>${parts.observation}</observation><reasoning>${parts.reasoning}</reasoning></think>${answer}`;
    case 'worldmodeling':
      return `<think><reasoning>${parts.reasoning}</reasoning><prediction>${parts.prediction}</prediction></think>${answer}`;
    case 'grounding_worldmodeling':
      return `<think><observation>${parts.observation}</observation><reasoning>${parts.reasoning}</reasoning><prediction>${parts.prediction}</prediction></think>${answer}`;
  }
}

/** The format section of a system prompt: the shape, what goes in each tag, and an example. */
export function formatInstructions(format: OutputFormat, maxActions: number, separator: string, example: FormatExample): string {
  const tags = [...formatTemplate(format).matchAll(/<([a-z]+)>/g)].map((match) => match[1]!);
  return [
    `Response format: ${formatTemplate(format)}`,
    ...tags.map((tag) => `- <${tag}>: ${PART_HELP[tag]}`),
    `Write up to ${maxActions} action(s) in <answer>, separated by "${separator}"; they run in order and stop at the first unknown action.`,
    `Example: ${formatResponse(format, example)}`,
  ].join('\n');
}

/** The one-line reminder appended to each observation. */
export function formatReminder(format: OutputFormat, maxActions: number, separator: string): string {
  return `Answer as ${formatTemplate(format)} with up to ${maxActions} action(s) separated by "${separator}".`;
}
