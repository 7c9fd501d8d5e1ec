import type { SokobanState } from '../sokoban/sokoban-rules';
import { pictureSvg, type GridPicture } from './grid-picture';
import { cellCircle, cellRect, checkCellSize, type GridSvgOptions } from './grid-svg';

/** Tile colours of the Sokoban image (documented in the system prompt). */
export const SOKOBAN_COLOURS = {
  wall: '#5b4636',
  wallMortar: '#3b2d22',
  floor: '#ece6d6',
  target: '#d62828',
  box: '#d9902f',
  boxEdge: '#8a5414',
  boxOnTarget: '#2e9e44',
  player: '#2f6fdb',
} as const;

/** One cell: `W` wall, `B` box, `B*` box on a target, `T` target, `.` floor; `@` after it for the player. */
function sokobanCellSvg(key: string, row: number, col: number, size: number): string {
  const c = SOKOBAN_COLOURS;
  if (key === 'W') return cellRect(row, col, size, c.wallMortar) + cellRect(row, col, size, c.wall, 1 / 16);
  const parts: string[] = [];
  if (key.startsWith('B')) parts.push(cellRect(row, col, size, key.startsWith('B*') ? c.boxOnTarget : c.box, 1 / 16, ` stroke="${c.boxEdge}" stroke-width="${size / 16}"`));
  else if (key.startsWith('T')) parts.push(cellCircle(row, col, size, 'none', 0.38, ` stroke="${c.target}" stroke-width="${size / 8}"`));
  if (key.endsWith('@')) parts.push(cellCircle(row, col, size, c.player, 0.3));
  return parts.join('');
}

/** Sokoban's picture, cell by cell (see GridPicture). */
export function sokobanPicture(state: SokobanState): GridPicture {
  const { room, boxes, player } = state;
  const cells: string[] = [];
  for (let cell = 0; cell < room.width * room.height; cell++) {
    if (room.walls[cell] === 1) {
      cells.push('W');
      continue;
    }
    const target = room.targets.includes(cell);
    const kind = boxes.includes(cell) ? (target ? 'B*' : 'B') : target ? 'T' : '.';
    cells.push(cell === player ? `${kind}@` : kind);
  }
  return { rows: room.height, cols: room.width, background: SOKOBAN_COLOURS.floor, cells, cellSvg: sokobanCellSvg };
}

/**
 * Sokoban as SVG: dark-brown walls, beige floor, targets as red rings, boxes orange squares
 * (green on a target), the player a blue disc. Every cell is `cellSize` pixels.
 */
export function sokobanSvg(state: SokobanState, options: GridSvgOptions = {}): string {
  return pictureSvg(sokobanPicture(state), checkCellSize(options.cellSize ?? 16));
}
