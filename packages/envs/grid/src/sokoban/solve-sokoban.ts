import { DIRECTIONS, type Direction } from '../common/position';
import { isSokobanSolved, moveSokoban, type SokobanState } from './sokoban-rules';

/** Limits of {@link solveSokoban}'s search. */
export interface SolveSokobanOptions {
  /** Longest solution looked for, in moves (default: unbounded). */
  maxSteps?: number;
  /** States expanded before giving up (default 200,000). */
  maxStates?: number;
}

/**
 * The shortest move sequence (fewest player moves, pushes included) that puts every box on a
 * target, found by breadth-first search over (player, boxes); undefined when none exists within
 * the bounds.
 */
export function solveSokoban(start: SokobanState, options: SolveSokobanOptions = {}): Direction[] | undefined {
  const maxSteps = options.maxSteps ?? Number.POSITIVE_INFINITY;
  const maxStates = options.maxStates ?? 200_000;
  if (isSokobanSolved(start)) return [];
  const parents = new Map<string, { parent: string; move: Direction } | null>();
  const startKey = stateKey(start);
  parents.set(startKey, null);
  let frontier: { key: string; state: SokobanState }[] = [{ key: startKey, state: start }];
  for (let depth = 1; depth <= maxSteps && frontier.length > 0; depth++) {
    const next: typeof frontier = [];
    for (const { key, state } of frontier) {
      for (const direction of DIRECTIONS) {
        const move = moveSokoban(state, direction);
        if (!move.moved) continue;
        const childKey = stateKey(move.state);
        if (parents.has(childKey)) continue;
        parents.set(childKey, { parent: key, move: direction });
        if (isSokobanSolved(move.state)) return tracePath(parents, childKey);
        if (parents.size > maxStates) return undefined;
        next.push({ key: childKey, state: move.state });
      }
    }
    frontier = next;
  }
  return undefined;
}

function stateKey(state: SokobanState): string {
  return `${state.player}:${state.boxes.join(',')}`;
}

function tracePath(parents: Map<string, { parent: string; move: Direction } | null>, key: string): Direction[] {
  const path: Direction[] = [];
  for (let link = parents.get(key); link; link = parents.get(link.parent)) path.push(link.move);
  return path.reverse();
}
