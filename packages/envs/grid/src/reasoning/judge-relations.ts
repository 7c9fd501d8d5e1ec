import type { Position } from '../common/position';
import type { GridSymbolicState } from './symbolic-state';

/**
 * One object's place relative to the player, in the JSON a judge answers with (VAGEN's
 * `object_id` / `vertical_relation` / `horizontal_relation`): vertical above | below | same,
 * horizontal left | right | same, null when the description does not say.
 */
export interface JudgeRelation {
  objectId: string;
  vertical: string | null;
  horizontal: string | null;
}

function relationTo(player: Position, object: Position, objectId: string): JudgeRelation {
  return {
    objectId,
    vertical: object.row < player.row ? 'above' : object.row > player.row ? 'below' : 'same',
    horizontal: object.col < player.col ? 'left' : object.col > player.col ? 'right' : 'same',
  };
}

/** The true relations a judge's answer is scored against: Sokoban's targets and boxes, FrozenLake's goal (`target`) and holes, each relative to the player. */
export function judgeRelationsOf(state: GridSymbolicState): JudgeRelation[] {
  if (state.env === 'sokoban') {
    return [...state.targets.map((target) => relationTo(state.player, target, 'target')), ...state.boxes.map((box) => relationTo(state.player, box, 'box'))];
  }
  return [relationTo(state.player, state.goal, 'target'), ...state.holes.map((hole) => relationTo(state.player, hole, 'hole'))];
}

/** The first JSON array of objects in `text` (after undoing doubled braces), with `//` comments dropped; undefined when there is none. */
function firstJsonArray(text: string): unknown[] | undefined {
  const source = text.replaceAll('{{', '{').replaceAll('}}', '}');
  for (let start = source.indexOf('['); start >= 0; start = source.indexOf('[', start + 1)) {
    let depth = 0;
    let inString = false;
    let kept = '';
    for (let index = start; index < source.length; index++) {
      const char = source[index]!;
      if (inString) {
        kept += char;
        if (char === '\\') kept += source[++index] ?? '';
        else if (char === '"') inString = false;
        continue;
      }
      if (char === '/' && source[index + 1] === '/') {
        // VAGEN's examples annotate their JSON with // comments, and judges copy them.
        while (index < source.length && source[index] !== '\n') index++;
        kept += '\n';
        continue;
      }
      kept += char;
      if (char === '"') inString = true;
      else if (char === '[') depth++;
      else if (char === ']' && --depth === 0) {
        try {
          const parsed: unknown = JSON.parse(kept);
          if (Array.isArray(parsed) && parsed.every((item) => typeof item === 'object' && item !== null && !Array.isArray(item))) return parsed;
        } catch {
          // not JSON: try the next '['
        }
        break;
      }
    }
  }
  return undefined;
}

/**
 * The relations in a judge's answer: the first JSON array of `{object_id, vertical_relation,
 * horizontal_relation}` objects in it (inside a ```json fence or not, as VAGEN reads them);
 * undefined when the answer holds no such array. Never throws.
 */
export function parseJudgeRelations(answer: string): JudgeRelation[] | undefined {
  const items = firstJsonArray(answer);
  if (items === undefined) return undefined;
  const text = (value: unknown): string | null => (typeof value === 'string' ? value.toLowerCase() : null);
  return (items as Record<string, unknown>[])
    .filter((item) => typeof item['object_id'] === 'string' && ('vertical_relation' in item || 'horizontal_relation' in item))
    .map((item) => ({ objectId: (item['object_id'] as string).toLowerCase(), vertical: text(item['vertical_relation']), horizontal: text(item['horizontal_relation']) }));
}

/** F1 of two lists under exact matching (each item matched at most once), 0 when either is empty: VAGEN's `calculate_f1_with_max_matching`. */
function exactMatchF1(stated: readonly JudgeRelation[], truth: readonly JudgeRelation[]): number {
  const used = new Set<number>();
  let matches = 0;
  for (const item of stated) {
    const index = truth.findIndex((other, position) => !used.has(position) && other.vertical === item.vertical && other.horizontal === item.horizontal);
    if (index >= 0) {
      used.add(index);
      matches++;
    }
  }
  const precision = stated.length > 0 ? matches / stated.length : 0;
  const recall = truth.length > 0 ? matches / truth.length : 0;
  return precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
}

/** Half a point per relation (vertical, horizontal) that both state and agree on. */
function similarity(a: JudgeRelation, b: JudgeRelation): number {
  return ((a.vertical !== null && a.vertical === b.vertical ? 1 : 0) + (a.horizontal !== null && a.horizontal === b.horizontal ? 1 : 0)) / 2;
}

/** The largest total weight of a one-to-one matching of rows to columns (Hungarian method on the negated weights). */
export function maximumMatchingWeight(weights: readonly (readonly number[])[]): number {
  const rows = weights.length;
  const columns = weights[0]?.length ?? 0;
  const size = Math.max(rows, columns);
  if (size === 0) return 0;
  const cost = (row: number, column: number): number => -(weights[row - 1]?.[column - 1] ?? 0);
  const u = new Array<number>(size + 1).fill(0);
  const v = new Array<number>(size + 1).fill(0);
  const match = new Array<number>(size + 1).fill(0); // match[column] = row
  const way = new Array<number>(size + 1).fill(0);
  for (let row = 1; row <= size; row++) {
    match[0] = row;
    let column0 = 0;
    const minimum = new Array<number>(size + 1).fill(Infinity);
    const used = new Array<boolean>(size + 1).fill(false);
    do {
      used[column0] = true;
      const row0 = match[column0]!;
      let delta = Infinity;
      let column1 = 0;
      for (let column = 1; column <= size; column++) {
        if (used[column]) continue;
        const reduced = cost(row0, column) - u[row0]! - v[column]!;
        if (reduced < minimum[column]!) {
          minimum[column] = reduced;
          way[column] = column0;
        }
        if (minimum[column]! < delta) {
          delta = minimum[column]!;
          column1 = column;
        }
      }
      for (let column = 0; column <= size; column++) {
        if (used[column]) {
          u[match[column]!]! += delta;
          v[column]! -= delta;
        } else minimum[column]! -= delta;
      }
      column0 = column1;
    } while (match[column0] !== 0);
    do {
      const column1 = way[column0]!;
      match[column0] = match[column1]!;
      column0 = column1;
    } while (column0 !== 0);
  }
  let total = 0;
  for (let column = 1; column <= size; column++) total += -cost(match[column]!, column);
  return total;
}

/**
 * FrozenLake's score: per object kind (target 0.7, hole 0.3), the F1 of a maximum-weight matching
 * where a stated relation earns half a point per direction it gets right; kinds in neither list
 * leave the average: VAGEN's `calculate_visual_reasoning_reward_bipartite`.
 */
function weightedBipartiteF1(stated: readonly JudgeRelation[], truth: readonly JudgeRelation[], objectWeights: Readonly<Record<string, number>>): number {
  const ids = [...new Set([...stated, ...truth].map((relation) => relation.objectId))].filter((id) => (objectWeights[id] ?? 0) > 0);
  if (ids.length === 0) return stated.length === 0 && truth.length === 0 ? 1 : 0;
  let sum = 0;
  let totalWeight = 0;
  for (const id of ids) {
    const weight = objectWeights[id]!;
    totalWeight += weight;
    const mine = stated.filter((relation) => relation.objectId === id);
    const theirs = truth.filter((relation) => relation.objectId === id);
    if (mine.length === 0 && theirs.length === 0) {
      sum += weight;
      continue;
    }
    const matched = mine.length > 0 && theirs.length > 0 ? maximumMatchingWeight(mine.map((a) => theirs.map((b) => similarity(a, b)))) : 0;
    const precision = mine.length > 0 ? matched / mine.length : 0;
    const recall = theirs.length > 0 ? matched / theirs.length : 0;
    sum += precision + recall === 0 ? 0 : (weight * 2 * precision * recall) / (precision + recall);
  }
  return sum / totalWeight;
}

/**
 * How well the relations a judge read from a description match the true state, in [0, 1], as
 * VAGEN's grid services score them: Sokoban `0.5·F1(targets) + 0.5·F1(boxes)` under exact
 * matching; FrozenLake the weighted bipartite F1 of the goal (0.7) and holes (0.3).
 */
export function scoreJudgeRelations(stated: readonly JudgeRelation[], state: GridSymbolicState): number {
  const truth = judgeRelationsOf(state);
  if (state.env === 'sokoban') {
    const of = (list: readonly JudgeRelation[], id: string) => list.filter((relation) => relation.objectId === id);
    return 0.5 * exactMatchF1(of(truth, 'target'), of(stated, 'target')) + 0.5 * exactMatchF1(of(truth, 'box'), of(stated, 'box'));
  }
  return weightedBipartiteF1(stated, truth, { target: 0.7, hole: 0.3 });
}
