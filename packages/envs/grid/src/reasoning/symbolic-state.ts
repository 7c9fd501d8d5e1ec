import type { Position } from '../common/position';
import type { FrozenLakeState } from '../frozen-lake/frozen-lake-rules';
import type { SokobanState } from '../sokoban/sokoban-rules';

/** FrozenLake's true state in symbolic form. */
export interface FrozenLakeSymbolicState {
  env: 'frozen-lake';
  rows: number;
  cols: number;
  player: Position;
  goal: Position;
  holes: Position[];
}

/** Sokoban's true state in symbolic form. */
export interface SokobanSymbolicState {
  env: 'sokoban';
  rows: number;
  cols: number;
  player: Position;
  boxes: Position[];
  targets: Position[];
  walls: Position[];
}

/** The symbolic state of either grid env. */
export type GridSymbolicState = FrozenLakeSymbolicState | SokobanSymbolicState;

// The fixed parts are computed once per map or room (states share them; treat them as read-only).
const holesByMap = new WeakMap<object, Position[]>();
const wallsByRoom = new WeakMap<object, Position[]>();

/** FrozenLake's objects (player, goal, holes) and their positions: what a model's described state is scored against. */
export function frozenLakeSymbolicState(state: FrozenLakeState): FrozenLakeSymbolicState {
  const { map, player } = state;
  let holes = holesByMap.get(map);
  if (holes === undefined) {
    holes = [];
    map.rows.forEach((line, row) => {
      for (let col = 0; col < line.length; col++) if (line[col] === 'H') holes!.push({ row, col });
    });
    holesByMap.set(map, holes);
  }
  return { env: 'frozen-lake', rows: map.size, cols: map.size, player, goal: map.goal, holes };
}

/** Sokoban's objects (player, boxes, targets, walls) and their positions: what a model's described state is scored against. */
export function sokobanSymbolicState(state: SokobanState): SokobanSymbolicState {
  const { room } = state;
  const at = (cell: number): Position => ({ row: Math.floor(cell / room.width), col: cell % room.width });
  let walls = wallsByRoom.get(room);
  if (walls === undefined) {
    walls = [];
    room.walls.forEach((wall, cell) => wall === 1 && walls!.push(at(cell)));
    wallsByRoom.set(room, walls);
  }
  return {
    env: 'sokoban',
    rows: room.height,
    cols: room.width,
    player: at(state.player),
    boxes: state.boxes.map(at),
    targets: room.targets.map(at),
    walls,
  };
}
