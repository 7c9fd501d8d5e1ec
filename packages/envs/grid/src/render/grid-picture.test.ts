import { decodeImage, renderSvg } from '@saccade/image';
import { describe, expect, it } from 'vitest';
import { frozenLakeMapFromRows } from '../frozen-lake/frozen-lake-map';
import { sokobanStateFromText } from '../sokoban/sokoban-rules';
import { frozenLakePicture } from './frozen-lake-svg';
import { pictureSvg, renderPicture, type GridPicture } from './grid-picture';
import { sokobanPicture } from './sokoban-svg';

/** The frame composed from tiles and the frame's SVG rendered whole, as RGB pixels. */
async function bothWays(picture: GridPicture, cellSize: number): Promise<[Uint8Array, Uint8Array]> {
  const composed = await renderPicture(picture, cellSize);
  const whole = await renderSvg(pictureSvg(picture, cellSize));
  const [a, b] = await Promise.all([decodeImage({ data: composed.data, mediaType: 'image/png' }, { channels: 3 }), decodeImage(whole, { channels: 3 })]);
  expect([a.width, a.height]).toEqual([b.width, b.height]);
  return [a.data, b.data];
}

const lake = frozenLakeMapFromRows(['SFFF', 'FHFH', 'FFFH', 'HFFG']);

describe('renderPicture', () => {
  it('composes FrozenLake frames from cell tiles with exactly the pixels of the whole SVG', async () => {
    // The player on the start, on ice, in a hole (the white cross) and on the goal; two cell sizes.
    for (const player of [{ row: 0, col: 0 }, { row: 2, col: 1 }, { row: 1, col: 1 }, { row: 3, col: 3 }]) {
      for (const cellSize of [16, 13]) {
        const [composed, whole] = await bothWays(frozenLakePicture({ map: lake, player }), cellSize);
        expect(Buffer.from(composed).equals(Buffer.from(whole))).toBe(true);
      }
    }
  });

  it('composes Sokoban frames (walls, boxes on and off targets, rings, the player) with the same pixels', async () => {
    const state = sokobanStateFromText(['#######', '#O__X_#', '#___√_#', '#__XS_#', '#######']);
    const picture = sokobanPicture(state);
    expect(new Set(picture.cells)).toEqual(new Set(['W', '.', 'T', 'B', 'B*', 'T@']));
    const [composed, whole] = await bothWays(picture, 16);
    expect(Buffer.from(composed).equals(Buffer.from(whole))).toBe(true);
  });

  it("names each cell's content: equal keys for cells that look alike", () => {
    expect(frozenLakePicture({ map: lake, player: { row: 1, col: 1 } }).cells).toEqual(['F', 'F', 'F', 'F', 'F', 'H@', 'F', 'H', 'F', 'F', 'F', 'H', 'H', 'F', 'F', 'G']);
  });
});
