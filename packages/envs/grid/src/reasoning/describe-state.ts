import { stateRelations, type RelativeDirection } from './object-relations';
import type { GridSymbolicState } from './symbolic-state';

const PHRASES: Readonly<Record<Exclude<RelativeDirection, 'same'>, string>> = {
  up: 'above',
  down: 'below',
  left: 'to the left of',
  right: 'to the right of',
  'up-left': 'above and to the left of',
  'up-right': 'above and to the right of',
  'down-left': 'below and to the left of',
  'down-right': 'below and to the right of',
};

const SAME: Readonly<Record<string, string>> = {
  goal: 'The player is on the goal.',
  hole: 'The player is in a hole.',
  target: 'The player is on a target.',
  box: 'The box is on the target.',
};

/**
 * A plain-English description of a state that lists every relation of `stateRelations`, e.g.
 * "The player is at row 1, column 2. The goal is below and to the right of the player." Used by
 * the oracle for `<observation>` and `<prediction>`; `relationF1` scores it 1.
 */
export function describeState(state: GridSymbolicState): string {
  const sentences = [`The player is at row ${state.player.row + 1}, column ${state.player.col + 1}.`];
  for (const { subject, direction, reference } of stateRelations(state)) {
    if (direction === 'same') sentences.push(SAME[subject === 'box' ? 'box' : subject] ?? '');
    else sentences.push(`${subject === 'goal' ? 'The goal' : `A ${subject}`} is ${PHRASES[direction]} the ${reference}.`);
  }
  return sentences.join(' ');
}
