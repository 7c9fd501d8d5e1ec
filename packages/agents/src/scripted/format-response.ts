import type { OutputFormat } from '@saccade/core';

/** Tags inside `<think>` per format (null: no think block), as in core's format layouts. */
const THINK_TAGS: Record<OutputFormat, readonly string[] | null> = {
  free_think: [],
  no_think: null,
  grounding: ['observation', 'reasoning'],
  worldmodeling: ['reasoning', 'prediction'],
  grounding_worldmodeling: ['observation', 'reasoning', 'prediction'],
};

/** Writes a response in a VAGEN format with the given answer and filler text for the thinking parts. */
export function writeFormattedResponse(format: OutputFormat, answer: string, filler: Partial<Record<string, string>> = {}): string {
  const tags = THINK_TAGS[format];
  const answerPart = `<answer>${answer}</answer>`;
  if (tags === null) return answerPart;
  const inner = tags.length === 0 ? (filler.think ?? 'I pick my next moves.') : tags.map((tag) => `<${tag}>${filler[tag] ?? `My ${tag}.`}</${tag}>`).join('');
  return `<think>${inner}</think>${answerPart}`;
}
