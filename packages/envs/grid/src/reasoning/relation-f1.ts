import { extractRelations } from './extract-relations';
import { relationHolds, relationKey, stateRelations, type ObjectRelation } from './object-relations';
import type { GridSymbolicState } from './symbolic-state';

/** How well stated object relations match the true state: F1, precision and recall. */
export interface RelationScore {
  /** Harmonic mean of precision and recall, in [0, 1]. */
  f1: number;
  /** Share of the stated relations that hold in the state. */
  precision: number;
  /** Share of the state's relations (see `stateRelations`) that the text states. */
  recall: number;
  stated: ObjectRelation[];
  expected: ObjectRelation[];
}

/**
 * Scores a description of the state (an `<observation>` or a `<prediction>`) against the true
 * state without an LLM: F1 between the relations the text states and the state's relations. A
 * stated relation counts as right when it holds in the state (between any two objects of its types).
 */
export function relationF1(text: string, state: GridSymbolicState): RelationScore {
  const stated = extractRelations(text, state.env);
  const expected = stateRelations(state);
  const statedKeys = new Set(stated.map(relationKey));
  const correct = stated.filter((relation) => relationHolds(relation, state)).length;
  const covered = expected.filter((relation) => statedKeys.has(relationKey(relation))).length;
  const precision = stated.length === 0 ? (expected.length === 0 ? 1 : 0) : correct / stated.length;
  const recall = expected.length === 0 ? 1 : covered / expected.length;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { f1, precision, recall, stated, expected };
}
