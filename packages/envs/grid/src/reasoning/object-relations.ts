import type { Position } from '../common/position';
import type { GridSymbolicState } from './symbolic-state';

/** Where a subject lies seen from a reference object (`same`: on the same cell). */
export type RelativeDirection = 'up' | 'down' | 'left' | 'right' | 'up-left' | 'up-right' | 'down-left' | 'down-right' | 'same';

/** "`subject` is `direction` of `reference`", between object types (`goal`, `hole`, `box`, …). */
export interface ObjectRelation {
  subject: string;
  direction: RelativeDirection;
  reference: string;
}

/** The object types each env names, the player first; a relation's reference is the earlier type. */
export const OBJECT_TYPES = {
  'frozen-lake': ['player', 'goal', 'hole'],
  sokoban: ['player', 'target', 'box'],
} as const;

/** Where `subject` lies seen from `reference`: one of eight directions, or `same`. */
export function relativeDirection(subject: Position, reference: Position): RelativeDirection {
  const vertical = subject.row < reference.row ? 'up' : subject.row > reference.row ? 'down' : '';
  const horizontal = subject.col < reference.col ? 'left' : subject.col > reference.col ? 'right' : '';
  if (vertical && horizontal) return `${vertical}-${horizontal}` as RelativeDirection;
  return (vertical || horizontal || 'same') as RelativeDirection;
}

const OPPOSITE: Readonly<Record<string, string>> = { up: 'down', down: 'up', left: 'right', right: 'left', same: 'same' };

/** The direction seen the other way round (`up-left` → `down-right`). */
export function invertDirection(direction: RelativeDirection): RelativeDirection {
  return direction
    .split('-')
    .map((part) => OPPOSITE[part])
    .join('-') as RelativeDirection;
}

/** A relation as one comparable string: `subject direction reference`. */
export function relationKey(relation: ObjectRelation): string {
  return `${relation.subject} ${relation.direction} ${relation.reference}`;
}

/** The positions of each object type in a state. */
export function stateObjects(state: GridSymbolicState): Record<string, readonly Position[]> {
  return state.env === 'frozen-lake'
    ? { player: [state.player], goal: [state.goal], hole: state.holes }
    : { player: [state.player], target: state.targets, box: state.boxes };
}

/**
 * The relations a good description of the state holds: where every object lies from the player
 * (one relation per object type and direction), and in Sokoban where each box lies from each target.
 */
export function stateRelations(state: GridSymbolicState): ObjectRelation[] {
  const objects = stateObjects(state);
  const relations = new Map<string, ObjectRelation>();
  const add = (relation: ObjectRelation) => relations.set(relationKey(relation), relation);
  for (const [type, positions] of Object.entries(objects)) {
    if (type === 'player') continue;
    for (const position of positions) add({ subject: type, direction: relativeDirection(position, state.player), reference: 'player' });
  }
  if (state.env === 'sokoban') {
    for (const box of state.boxes) {
      for (const target of state.targets) add({ subject: 'box', direction: relativeDirection(box, target), reference: 'target' });
    }
  }
  return [...relations.values()];
}

/** Whether some object of the subject type lies in that direction from some object of the reference type. */
export function relationHolds(relation: ObjectRelation, state: GridSymbolicState): boolean {
  const objects = stateObjects(state);
  const subjects = objects[relation.subject] ?? [];
  const references = objects[relation.reference] ?? [];
  return subjects.some((subject) =>
    references.some(
      (reference) =>
        (relation.subject !== relation.reference || subject !== reference) &&
        relativeDirection(subject, reference) === relation.direction,
    ),
  );
}
