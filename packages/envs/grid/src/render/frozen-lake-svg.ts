import type { FrozenLakeState } from '../frozen-lake/frozen-lake-rules';
import { pictureSvg, type GridPicture } from './grid-picture';
import { cellCircle, cellRect, checkCellSize, type GridSvgOptions } from './grid-svg';

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

/** One cell: `F` ice (the start too), `H` hole, `G` goal; `@` after it when the player is there. */
function frozenLakeCellSvg(key: string, row: number, col: number, size: number): string {
  const c = FROZEN_LAKE_COLOURS;
  const parts = [cellRect(row, col, size, c.ice, 1 / 16)];
  const tile = key[0];
  if (tile === 'H') parts.push(cellRect(row, col, size, c.hole, 1 / 8, ` rx="${size / 8}"`));
  else if (tile === 'G') {
    parts.push(cellRect(row, col, size, c.goal, 1 / 16));
    const cx = (col + 0.5) * size;
    const cy = (row + 0.5) * size;
    const r = size * 0.3;
    parts.push(`<polygon points="${cx},${cy - r} ${cx + r},${cy} ${cx},${cy + r} ${cx - r},${cy}" fill="${c.goalMark}"/>`);
  }
  if (key.endsWith('@')) {
    parts.push(cellCircle(row, col, size, c.player, 0.3));
    if (tile === 'H') {
      const x = (col + 0.5) * size;
      const y = (row + 0.5) * size;
      const d = size * 0.15;
      parts.push(`<path d="M${x - d} ${y - d}L${x + d} ${y + d}M${x + d} ${y - d}L${x - d} ${y + d}" stroke="${c.fallen}" stroke-width="${size / 10}"/>`);
    }
  }
  return parts.join('');
}

/** FrozenLake's picture, cell by cell (see GridPicture). */
export function frozenLakePicture(state: FrozenLakeState): GridPicture {
  const { map, player } = state;
  const cells: string[] = [];
  for (let row = 0; row < map.size; row++) {
    for (let col = 0; col < map.size; col++) {
      const tile = map.rows[row]![col];
      const kind = tile === 'H' ? 'H' : tile === 'G' ? 'G' : 'F';
      cells.push(row === player.row && col === player.col ? `${kind}@` : kind);
    }
  }
  return { rows: map.size, cols: map.size, background: FROZEN_LAKE_COLOURS.iceEdge, cells, cellSvg: frozenLakeCellSvg };
}

/**
 * FrozenLake as SVG: light-blue ice, dark-navy holes, a green goal with a yellow diamond, the
 * player a red disc (with a white cross when in a hole). Every cell is `cellSize` pixels.
 */
export function frozenLakeSvg(state: FrozenLakeState, options: GridSvgOptions = {}): string {
  return pictureSvg(frozenLakePicture(state), checkCellSize(options.cellSize ?? 16));
}
