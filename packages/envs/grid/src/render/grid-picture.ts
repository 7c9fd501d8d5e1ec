import { decodeImage, encodePng, renderSvg } from '@saccade/image';
import { gridSvgDocument } from './grid-svg';

/**
 * A grid world's picture, cell by cell. Every element a cell draws lies inside that cell, so a
 * frame is its cells' tiles side by side: each distinct tile is rasterised once (librsvg, ~3 ms of
 * CPU) and a frame is copied together from them and encoded (~0.5 ms), the same pixels as
 * rendering the frame's SVG whole (tested).
 */
export interface GridPicture {
  rows: number;
  cols: number;
  /** The fill behind every cell. */
  background: string;
  /** What each cell shows, row-major: cells with equal keys look the same. */
  cells: readonly string[];
  /** The SVG elements of a cell showing `key` at (row, col), background excluded. */
  cellSvg(key: string, row: number, col: number, cellSize: number): string;
}

/** The picture as one SVG document. */
export function pictureSvg(picture: GridPicture, cellSize: number): string {
  const parts = [`<rect width="100%" height="100%" fill="${picture.background}"/>`];
  picture.cells.forEach((key, index) => parts.push(picture.cellSvg(key, Math.floor(index / picture.cols), index % picture.cols, cellSize)));
  return gridSvgDocument(picture.cols, picture.rows, cellSize, parts.join(''));
}

// Tile SVG → its RGB pixels. A few dozen tiles cover every grid world at a few cell sizes.
const tiles = new Map<string, Promise<Uint8Array>>();
const MAX_TILES = 1024;

function tilePixels(picture: GridPicture, key: string, cellSize: number): Promise<Uint8Array> {
  const svg = gridSvgDocument(1, 1, cellSize, `<rect width="100%" height="100%" fill="${picture.background}"/>${picture.cellSvg(key, 0, 0, cellSize)}`);
  let pixels = tiles.get(svg);
  if (pixels === undefined) {
    if (tiles.size >= MAX_TILES) tiles.clear();
    pixels = renderSvg(svg).then(async (image) => (await decodeImage(image, { channels: 3 })).data);
    tiles.set(svg, pixels);
    pixels.catch(() => tiles.delete(svg));
  }
  return pixels;
}

/** The picture as a PNG, composed from its cells' tiles. */
export async function renderPicture(picture: GridPicture, cellSize: number): Promise<{ data: Uint8Array; width: number; height: number }> {
  const width = picture.cols * cellSize;
  const height = picture.rows * cellSize;
  const keys = [...new Set(picture.cells)];
  const pixels = new Map(await Promise.all(keys.map(async (key) => [key, await tilePixels(picture, key, cellSize)] as const)));
  const frame = new Uint8Array(width * height * 3);
  const tileRow = cellSize * 3;
  picture.cells.forEach((key, index) => {
    const tile = pixels.get(key)!;
    const left = (index % picture.cols) * cellSize;
    const top = Math.floor(index / picture.cols) * cellSize;
    for (let y = 0; y < cellSize; y++) frame.set(tile.subarray(y * tileRow, (y + 1) * tileRow), ((top + y) * width + left) * 3);
  });
  const png = await encodePng({ data: frame, width, height, channels: 3 });
  return { data: png.data, width, height };
}
