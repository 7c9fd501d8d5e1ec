import type { SokobanState } from '../sokoban/sokoban-rules';
import { cellCircle, cellRect, checkCellSize, gridSvgDocument, type GridSvgOptions } from './grid-svg';

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

/**
 * Sokoban as SVG: dark-brown walls, beige floor, targets as red rings, boxes orange squares
 * (green on a target), the player a blue disc. Every cell is `cellSize` pixels.
 */
export function sokobanSvg(state: SokobanState, options: GridSvgOptions = {}): string {
  const size = checkCellSize(options.cellSize ?? 16);
  const { room, boxes, player } = state;
  const c = SOKOBAN_COLOURS;
  const ring = ` stroke="${c.target}" stroke-width="${size / 8}"`;
  const parts: string[] = [`<rect width="100%" height="100%" fill="${c.floor}"/>`];
  for (let cell = 0; cell < room.width * room.height; cell++) {
    const row = Math.floor(cell / room.width);
    const col = cell % room.width;
    if (room.walls[cell] === 1) {
      parts.push(cellRect(row, col, size, c.wallMortar), cellRect(row, col, size, c.wall, 1 / 16));
      continue;
    }
    const target = room.targets.includes(cell);
    if (boxes.includes(cell)) {
      parts.push(cellRect(row, col, size, target ? c.boxOnTarget : c.box, 1 / 16, ` stroke="${c.boxEdge}" stroke-width="${size / 16}"`));
    } else if (target) {
      parts.push(cellCircle(row, col, size, "none", 0.38, ring));
    }
    if (cell === player) parts.push(cellCircle(row, col, size, c.player, 0.3));
  }
  return gridSvgDocument(room.width, room.height, size, parts.join(''));
}
