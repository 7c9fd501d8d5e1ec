import type { ActionSpace, DiscreteActionSpace, Env, TextActionSpace } from '@saccade/spec';
import { OUTPUT_FORMATS, formatTemplate, type OutputFormat } from '../formats/output-format';
import type { Rng } from '../random/create-rng';

/** The action space of the outermost env in a wrapper chain (`.env` links) that declares one. */
export function findActionSpace(env: Env): ActionSpace | undefined {
  for (let link: unknown = env; typeof link === 'object' && link !== null; link = (link as { env?: unknown }).env) {
    const method = (link as { actionSpace?: unknown }).actionSpace;
    if (typeof method === 'function') return (method as () => ActionSpace).call(link);
  }
  return undefined;
}

/** Why a value is not an `ActionSpace`, or `undefined` when it is one. */
export function describeInvalidActionSpace(value: unknown, path = 'actionSpace()'): string | undefined {
  if (typeof value !== 'object' || value === null) return `${path}: expected an action space object, received ${value === null ? 'null' : typeof value}`;
  const space = value as Partial<Record<string, unknown>>;
  const strings = (list: unknown) => Array.isArray(list) && list.length > 0 && list.every((item) => typeof item === 'string' && item.length > 0);
  switch (space.kind) {
    case 'discrete':
      if (!strings(space.actions)) return `${path}.actions: expected a non-empty array of non-empty strings`;
      if (!(Number.isSafeInteger(space.maxActionsPerTurn) && (space.maxActionsPerTurn as number) >= 1)) return `${path}.maxActionsPerTurn: expected an integer ≥ 1, received ${String(space.maxActionsPerTurn)}`;
      if (typeof space.separator !== 'string' || space.separator.length === 0) return `${path}.separator: expected a non-empty string`;
      return typeof space.format === 'string' ? undefined : `${path}.format: expected a format name`;
    case 'text':
      if (space.choices !== undefined && !strings(space.choices)) return `${path}.choices: expected a non-empty array of non-empty strings when given`;
      return typeof space.format === 'string' ? undefined : `${path}.format: expected a format name`;
    case 'tool-calls':
      if (!strings(space.tools)) return `${path}.tools: expected a non-empty array of tool names`;
      if ((space.answer as { kind?: unknown } | undefined)?.kind === 'tool-calls') return `${path}.answer: expected a discrete or text space`;
      return describeInvalidActionSpace(space.answer, `${path}.answer`);
    default:
      return `${path}.kind: expected 'discrete', 'text' or 'tool-calls', received ${JSON.stringify(space.kind)}`;
  }
}

/**
 * A random answer from a space (the text inside `<answer>`): 1 to `maxActionsPerTurn` discrete
 * actions, one of the text choices, a small integer for `answerType: 'number'`, else a word.
 */
export function sampleAnswer(space: ActionSpace, rng: Rng): string {
  const answerSpace: DiscreteActionSpace | TextActionSpace = space.kind === 'tool-calls' ? space.answer : space;
  if (answerSpace.kind === 'discrete') {
    const count = rng.int(1, answerSpace.maxActionsPerTurn);
    return Array.from({ length: count }, () => rng.pick(answerSpace.actions)).join(`${answerSpace.separator} `);
  }
  if (answerSpace.choices !== undefined) return rng.pick(answerSpace.choices);
  return answerSpace.answerType === 'number' ? String(rng.int(0, 10)) : 'unknown';
}

/**
 * A well-formed response carrying `answer` in the space's format: one of the VAGEN formats
 * (`formatTemplate`, with `filler` in the thinking parts), else `<answer>…</answer>`.
 */
export function formatAnswer(format: string, answer: string, filler = 'I look at the image.'): string {
  if (!(OUTPUT_FORMATS as readonly string[]).includes(format)) return `<answer>${answer}</answer>`;
  const parts = formatTemplate(format as OutputFormat).split('…');
  return parts.reduce((text, part, index) => text + (index === 0 ? '' : index === parts.length - 1 ? answer : filler) + part, '');
}
