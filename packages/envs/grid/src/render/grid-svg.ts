import { InvalidArgumentError } from '@saccade/spec';
/** Options shared by the SVG renderers. */
export interface GridSvgOptions {
  /** Side of one cell in pixels (default 16): a 4×4 lake is a 64 px image, so 16 px image patches align with cells. */
  cellSize?: number;
}

/** Wraps cell drawings into an SVG document of `cols × rows` cells. */
export function gridSvgDocument(cols: number, rows: number, cellSize: number, body: string): string {
  const width = cols * cellSize;
  const height = rows * cellSize;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${body}</svg>`;
}

/** A square filling a cell, inset by `inset` cells on each side. */
export function cellRect(row: number, col: number, size: number, fill: string, inset = 0, extra = ''): string {
  const offset = size * inset;
  const side = size - 2 * offset;
  return `<rect x="${col * size + offset}" y="${row * size + offset}" width="${side}" height="${side}" fill="${fill}"${extra}/>`;
}

/** A disc centred in a cell, `radius` in cells. */
export function cellCircle(row: number, col: number, size: number, fill: string, radius: number, extra = ''): string {
  return `<circle cx="${(col + 0.5) * size}" cy="${(row + 0.5) * size}" r="${radius * size}" fill="${fill}"${extra}/>`;
}

export function checkCellSize(cellSize: number): number {
  if (!Number.isInteger(cellSize) || cellSize < 4 || cellSize > 256) {
    throw new InvalidArgumentError({ argument: 'cellSize', expected: 'an integer number of pixels in [4, 256]', value: cellSize });
  }
  return cellSize;
}
