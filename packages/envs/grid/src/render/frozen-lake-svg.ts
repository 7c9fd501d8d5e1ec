import type { FrozenLakeState } from '../frozen-lake/frozen-lake-rules';
import { cellCircle, cellRect, checkCellSize, gridSvgDocument, type GridSvgOptions } from './grid-svg';

/** Tile colours of the FrozenLake image (documented in the system prompt). */
export const FROZEN_LAKE_COLOURS = {
  ice: '#cfe8fa',
  iceEdge: '#9cc7e6',
  hole: '#0f2742',
  goal: '#2e9e44',
  goalMark: '#f5d33b',
  player: '#e63946',
  fallen: '#ffffff',
} as const;

/**
 * FrozenLake as SVG: light-blue ice, dark-navy holes, a green goal with a yellow diamond, the
 * player a red disc (with a white cross when in a hole). Every cell is `cellSize` pixels.
 */
export function frozenLakeSvg(state: FrozenLakeState, options: GridSvgOptions = {}): string {
  const size = checkCellSize(options.cellSize ?? 16);
  const { map, player } = state;
  const c = FROZEN_LAKE_COLOURS;
  const parts: string[] = [`<rect width="100%" height="100%" fill="${c.iceEdge}"/>`];
  for (let row = 0; row < map.size; row++) {
    const line = map.rows[row]!;
    for (let col = 0; col < map.size; col++) {
      const tile = line[col];
      parts.push(cellRect(row, col, size, c.ice, 1 / 16));
      if (tile === 'H') parts.push(cellRect(row, col, size, c.hole, 1 / 8, ` rx="${size / 8}"`));
      else if (tile === 'G') {
        parts.push(cellRect(row, col, size, c.goal, 1 / 16));
        const cx = (col + 0.5) * size;
        const cy = (row + 0.5) * size;
        const r = size * 0.3;
        parts.push(`<polygon points="${cx},${cy - r} ${cx + r},${cy} ${cx},${cy + r} ${cx - r},${cy}" fill="${c.goalMark}"/>`);
      }
    }
  }
  parts.push(cellCircle(player.row, player.col, size, c.player, 0.3));
  if (map.rows[player.row]?.[player.col] === 'H') {
    const x = (player.col + 0.5) * size;
    const y = (player.row + 0.5) * size;
    const d = size * 0.15;
    parts.push(
      `<path d="M${x - d} ${y - d}L${x + d} ${y + d}M${x + d} ${y - d}L${x - d} ${y + d}" stroke="${c.fallen}" stroke-width="${size / 10}"/>`,
    );
  }
  return gridSvgDocument(map.size, map.size, size, parts.join(''));
}
