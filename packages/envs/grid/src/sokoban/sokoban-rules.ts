import { InvalidArgumentError } from '@saccade/spec';
import { DIRECTION_DELTAS, type Direction } from '../common/position';

/** The fixed part of a Sokoban level: its size, walls (1 = wall, by cell index) and targets. */
export interface SokobanRoom {
  readonly width: number;
  readonly height: number;
  /** One entry per cell, `row * width + col`; 1 where there is a wall. */
  readonly walls: Uint8Array;
  /** Target cells, ascending. */
  readonly targets: readonly number[];
}

/** A Sokoban position: the room, the box cells (ascending) and the player's cell. */
export interface SokobanState {
  readonly room: SokobanRoom;
  readonly boxes: readonly number[];
  readonly player: number;
}

/** The outcome of one Sokoban move: the new state and what changed. */
export interface SokobanMove {
  state: SokobanState;
  /** The player changed cell. */
  moved: boolean;
  /** How many boxes on a target the move added (+1), removed (−1) or kept (0). */
  boxesOnTargetChange: number;
}

/** gym-sokoban's push move: walk into a free cell, or push a box if the cell behind it is free. */
export function moveSokoban(state: SokobanState, direction: Direction): SokobanMove {
  const { room, boxes, player } = state;
  const step = cellStep(room.width, direction);
  const next = neighbourCell(room, player, direction, step);
  if (next < 0 || room.walls[next] === 1) return { state, moved: false, boxesOnTargetChange: 0 };
  const boxIndex = boxes.indexOf(next);
  if (boxIndex < 0) return { state: { room, boxes, player: next }, moved: true, boxesOnTargetChange: 0 };
  const beyond = neighbourCell(room, next, direction, step);
  if (beyond < 0 || room.walls[beyond] === 1 || boxes.includes(beyond)) {
    return { state, moved: false, boxesOnTargetChange: 0 };
  }
  const moved = boxes.map((box) => (box === next ? beyond : box)).sort((a, b) => a - b);
  const change = (room.targets.includes(beyond) ? 1 : 0) - (room.targets.includes(next) ? 1 : 0);
  return { state: { room, boxes: moved, player: next }, moved: true, boxesOnTargetChange: change };
}

/** How many boxes stand on a target. */
export function boxesOnTargets(state: SokobanState): number {
  let count = 0;
  for (const box of state.boxes) if (state.room.targets.includes(box)) count++;
  return count;
}

/** Whether every box stands on a target. */
export function isSokobanSolved(state: SokobanState): boolean {
  return boxesOnTargets(state) === state.boxes.length;
}

/** The cell one step from `cell` in `direction`, or −1 off the room. */
export function neighbourCell(room: SokobanRoom, cell: number, direction: Direction, step = cellStep(room.width, direction)): number {
  const col = cell % room.width;
  if ((direction === 'Left' && col === 0) || (direction === 'Right' && col === room.width - 1)) return -1;
  const next = cell + step;
  return next < 0 || next >= room.width * room.height ? -1 : next;
}

function cellStep(width: number, direction: Direction): number {
  const [dr, dc] = DIRECTION_DELTAS[direction];
  return dr * width + dc;
}

/**
 * The text grid with REFERENCE's symbols: `#` wall, `_` floor, `O` target, `√` box on target,
 * `X` box, `P` player, `S` player on target; one line per row.
 */
export function sokobanText(state: SokobanState): string {
  const { room, boxes, player } = state;
  const lines: string[] = [];
  for (let row = 0; row < room.height; row++) {
    let line = '';
    for (let col = 0; col < room.width; col++) {
      const cell = row * room.width + col;
      const target = room.targets.includes(cell);
      if (room.walls[cell] === 1) line += '#';
      else if (cell === player) line += target ? 'S' : 'P';
      else if (boxes.includes(cell)) line += target ? '√' : 'X';
      else line += target ? 'O' : '_';
    }
    lines.push(line);
  }
  return lines.join('\n');
}

/** Reads a level written with the text symbols (`#`, `_`, `O`, `√`, `X`, `P`, `S`). */
export function sokobanStateFromText(text: string | readonly string[]): SokobanState {
  const lines = typeof text === 'string' ? text.trim().split('\n').map((line) => line.trim()) : text;
  const height = lines.length;
  const width = lines[0]?.length ?? 0;
  const walls = new Uint8Array(width * height);
  const targets: number[] = [];
  const boxes: number[] = [];
  let player = -1;
  lines.forEach((line, row) => {
    const symbols = [...line];
    if (symbols.length !== width) throw new InvalidArgumentError({ argument: 'level', expected: `rows of equal length (row ${row} differs)`, value: text });
    symbols.forEach((symbol, col) => {
      const cell = row * width + col;
      if (symbol === '#') walls[cell] = 1;
      if (symbol === 'O' || symbol === '√' || symbol === 'S') targets.push(cell);
      if (symbol === 'X' || symbol === '√') boxes.push(cell);
      if (symbol === 'P' || symbol === 'S') player = cell;
      if (!'#_OX√PS'.includes(symbol)) throw new InvalidArgumentError({ argument: 'level', expected: `symbols # _ O X √ P S (found "${symbol}" at row ${row}, column ${col})`, value: text });
    });
  });
  if (player < 0) throw new InvalidArgumentError({ argument: 'level', expected: 'a player (P or S)', value: text });
  if (boxes.length !== targets.length) throw new InvalidArgumentError({ argument: 'level', expected: 'as many boxes as targets', value: text });
  return { room: { width, height, walls, targets }, boxes, player };
}
