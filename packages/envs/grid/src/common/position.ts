/** A cell of a grid: row 0 is the top row, column 0 the left column. */
export interface Position {
  readonly row: number;
  readonly col: number;
}

/** The four moves of both grid worlds. */
export type Direction = 'Up' | 'Down' | 'Left' | 'Right';

/** The four moves, in the order action spaces list them. */
export const DIRECTIONS: readonly Direction[] = ['Up', 'Down', 'Left', 'Right'];

/** Row and column change of one move in each direction. */
export const DIRECTION_DELTAS: Readonly<Record<Direction, readonly [number, number]>> = {
  Up: [-1, 0],
  Down: [1, 0],
  Left: [0, -1],
  Right: [0, 1],
};

const DIRECTION_BY_NAME: ReadonlyMap<string, Direction> = new Map(DIRECTIONS.map((d) => [d.toLowerCase(), d]));

/** The direction an action names (case-insensitive, surrounding space ignored), or undefined. */
export function parseDirection(action: string): Direction | undefined {
  return DIRECTION_BY_NAME.get(action.trim().toLowerCase());
}

/** Whether two positions are the same cell. */
export function samePosition(a: Position, b: Position): boolean {
  return a.row === b.row && a.col === b.col;
}
