import { DIRECTION_DELTAS, type Direction, type Position } from '../common/position';
import { randomInt, type RandomSource } from '../common/random-source';
import { frozenLakeTile, type FrozenLakeMap } from './frozen-lake-map';

/** Where the player stands: still on the ice, in a hole, or on the goal. */
export type FrozenLakeStatus = 'playing' | 'hole' | 'goal';

/** A FrozenLake position: the map and the player. */
export interface FrozenLakeState {
  readonly map: FrozenLakeMap;
  readonly player: Position;
}

/** gym's slip rule: the intended move or one of the two perpendicular moves, each with p = 1/3. */
const SLIP_CHOICES: Readonly<Record<Direction, readonly Direction[]>> = {
  Left: ['Up', 'Left', 'Down'],
  Down: ['Left', 'Down', 'Right'],
  Right: ['Down', 'Right', 'Up'],
  Up: ['Right', 'Up', 'Left'],
};

/** Whether the player stands in a hole, on the goal, or is still playing. */
export function frozenLakeStatus(state: FrozenLakeState): FrozenLakeStatus {
  const tile = frozenLakeTile(state.map, state.player);
  return tile === 'H' ? 'hole' : tile === 'G' ? 'goal' : 'playing';
}

/**
 * One move. A move off the map leaves the player in place (as in gym). With `slippery`, the
 * direction taken follows gym's 1/3 rule, drawn from `random`.
 */
export function moveFrozenLake(
  state: FrozenLakeState,
  intended: Direction,
  slip?: { random: RandomSource },
): { state: FrozenLakeState; taken: Direction } {
  const taken = slip ? SLIP_CHOICES[intended][randomInt(slip.random, 3)]! : intended;
  const [dr, dc] = DIRECTION_DELTAS[taken];
  const row = state.player.row + dr;
  const col = state.player.col + dc;
  const { size } = state.map;
  if (row < 0 || col < 0 || row >= size || col >= size) return { state, taken };
  return { state: { map: state.map, player: { row, col } }, taken };
}

/**
 * The text grid with REFERENCE's symbols: `P` player, `_` frozen, `O` hole, `G` goal, `X` player
 * in a hole, `√` player on the goal; one line per row.
 */
export function frozenLakeText(state: FrozenLakeState): string {
  const { map, player } = state;
  const lines: string[] = [];
  for (let row = 0; row < map.size; row++) {
    let line = '';
    const tiles = map.rows[row]!;
    for (let col = 0; col < map.size; col++) {
      const tile = tiles[col]!;
      const here = row === player.row && col === player.col;
      if (tile === 'H') line += here ? 'X' : 'O';
      else if (tile === 'G') line += here ? '√' : 'G';
      else line += here ? 'P' : '_';
    }
    lines.push(line);
  }
  return lines.join('\n');
}
