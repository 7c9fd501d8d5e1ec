import type { ToolTurnFormat } from '../wrappers/tool-turn-format';
import type { ToolBudget } from '../wrappers/tool-use-wrapper';
import { IMAGE_PLACEHOLDER } from '@saccade/spec';
import { budgetSpentNote, cropObservation, FORCED_ANSWER_PREFIX } from './grounded-prompts';
import { parseGroundedTurn } from './grounded-turn';

const errorObservation = (message: string) => `<observation>\nError: ${message.replaceAll(IMAGE_PLACEHOLDER, '')}\n</observation>`;

/**
 * ViGoRL's multi-turn convention as a `ToolUseWrapper` format: a turn is `<think>…</think>` then one
 * `<tool_call>` (`{"name": "search_coordinate", "arguments": {"coordinate": [x, y]}}`) or an
 * `<answer>`; only its first readable call runs; the crop comes back in ViGoRL's `<observation>`
 * message (with the red-dot sentence when the env asked for a dot), errors as
 * `<observation>\nError: …\n</observation>`; a turn with neither a call nor an answer is reported
 * and the episode goes on. The env's system prompt describes the call (no `<tools>` block).
 */
export const VIGORL_TOOL_FORMAT: ToolTurnFormat = {
  name: 'vigorl',
  toolsPrompt: () => undefined,
  read(response, { toolNames }) {
    const turn = parseGroundedTurn(response, { toolNames });
    if (turn.kind === 'answer') return { kind: 'answer' };
    if (turn.kind === 'invalid' || turn.call === undefined) return { kind: 'invalid', error: turn.error ?? 'no tool call or answer could be read' };
    return { kind: 'calls', calls: [{ ok: true, call: turn.call, raw: response }], ...(turn.error === undefined ? {} : { formatError: turn.error }) };
  },
  write({ calls, error, toolNames }) {
    if (error !== undefined) return errorObservation(`${error}.`);
    const outcome = calls[0];
    if (outcome === undefined) return errorObservation('no tool call could be read.');
    const { record, images, settings } = outcome;
    if (record.ok) return images > 0 ? cropObservation({ dot: settings?.['dot'] !== undefined && settings['dot'] !== false }) : errorObservation('the crop returned no image.');
    if (record.failure === 'unknown-tool') return errorObservation(`unknown tool "${(record.name ?? '').slice(0, 60)}"; the tool is ${toolNames.join(' or ')}.`);
    return errorObservation(record.error ?? 'the call failed.');
  },
};

/**
 * ViGoRL's image budget as a `ToolUseWrapper` budget: the original and `maxCrops` crops; the crop
 * that spends it says so, the forced final answer follows, and a further crop ends the episode.
 */
export function vigorlCropBudget(maxCrops: number): ToolBudget {
  return {
    results: maxCrops,
    spentNote: budgetSpentNote,
    exceededNote: (crops) => `No crops remain (the budget is the original and ${crops} crop${crops === 1 ? '' : 's'}); the episode ends without an answer.`,
    forcedPrefix: FORCED_ANSWER_PREFIX,
  };
}
