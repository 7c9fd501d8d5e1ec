import { DIRECTION_DELTAS, DIRECTIONS, type Direction, type Position } from '../common/position';
import type { FrozenLakeMap } from './frozen-lake-map';

/**
 * The shortest action sequence from `from` to the goal on a non-slippery lake (BFS over tiles that
 * are not holes), or undefined when the goal cannot be reached. On a slippery lake it is the plan
 * to follow when every move goes as intended; re-plan after each turn.
 */
export function solveFrozenLake(map: FrozenLakeMap, from: Position): Direction[] | undefined {
  const { size, goal } = map;
  const cells = size * size;
  const fromIndex = from.row * size + from.col;
  const goalIndex = goal.row * size + goal.col;
  if (fromIndex === goalIndex) return [];
  if (map.rows[from.row]?.[from.col] === 'H') return undefined;
  const previous = new Int32Array(cells).fill(-1);
  const move = new Int8Array(cells);
  previous[fromIndex] = fromIndex;
  const queue = [fromIndex];
  for (let head = 0; head < queue.length; head++) {
    const cell = queue[head]!;
    const row = Math.floor(cell / size);
    const col = cell % size;
    for (let d = 0; d < DIRECTIONS.length; d++) {
      const [dr, dc] = DIRECTION_DELTAS[DIRECTIONS[d]!];
      const r = row + dr;
      const c = col + dc;
      if (r < 0 || c < 0 || r >= size || c >= size) continue;
      const next = r * size + c;
      if (previous[next] !== -1 || map.rows[r]![c] === 'H') continue;
      previous[next] = cell;
      move[next] = d;
      if (next === goalIndex) return tracePath(previous, move, fromIndex, goalIndex);
      queue.push(next);
    }
  }
  return undefined;
}

function tracePath(previous: Int32Array, move: Int8Array, from: number, to: number): Direction[] {
  const path: Direction[] = [];
  for (let cell = to; cell !== from; cell = previous[cell]!) path.push(DIRECTIONS[move[cell]!]!);
  return path.reverse();
}
